#pragma once
// Thread states from scheduling records (nsys's SCHED_EVENTS, written with --cpuctxsw): a thread runs from
// each switch in to the next switch out, and is off its CPU from a switch out to the next switch in, in
// the state the switch-out record gives (ENUM_SAMPLING_THREAD_STATE; nsys's exports say Unknown for most
// and Terminated at the end).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/time_interval.h"

namespace gpuscope {

class Database;

enum class ThreadActivity : uint8_t {
  Running,     // on a CPU
  OffCpu,      // switched out, waiting to be switched in again
  Terminated,  // switched out for the last time
};

struct ThreadStateSpan {
  TimeInterval time;
  ThreadActivity activity = ThreadActivity::Running;
  uint8_t threadBlock = 0;  // ENUM_SCHEDULING_THREAD_BLOCK of the switch out, where the record gives one
};

struct ThreadStates {
  int64_t globalTid = 0;
  std::vector<ThreadStateSpan> spans;  // in time order, each ending where the next begins

  // From the first record to the last.
  TimeInterval observed() const;
  // Time in ACTIVITY within WINDOW (the whole observed time when WINDOW is empty).
  int64_t timeIn(ThreadActivity activity, TimeInterval window = {}) const;
};

struct ThreadStateRead {
  std::vector<ThreadStates> threads;  // by globalTid
  bool missingTable = false;          // the file has no SCHED_EVENTS
};

// The states of every thread with scheduling records, or those of PID (and TID) only.
ThreadStateRead readThreadStates(const Database& db, std::optional<uint32_t> pid = {},
                                 std::optional<uint32_t> tid = {});

const char* activityLabel(ThreadActivity activity);

}  // namespace gpuscope
