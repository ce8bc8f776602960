#pragma once
// Thread states from scheduling records (nsys's table::kSchedEvents, written with --cpuctxsw): a thread runs from
// each switch in to the next switch out, and is off its CPU from a switch out to the next switch in, in
// the state the switch-out record gives (ENUM_SAMPLING_THREAD_STATE and ENUM_SCHEDULING_THREAD_BLOCK).
// nsys's exports say Unknown for most and Terminated at the end; gpuscope's recordings tell a thread
// preempted while runnable from one that blocked (slept, waited on a lock, a read, the GPU).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/time_interval.h"

namespace gpuscope {

class Database;

enum class ThreadActivity : uint8_t {
  Running,     // on a CPU
  OffCpu,      // switched out, for a reason the record does not give
  Preempted,   // switched out while runnable: waiting for a CPU
  Sleeping,    // switched out because it blocked (interruptible sleep: a wait, a sleep, a lock, a poll)
  BlockedIo,   // switched out in uninterruptible sleep (usually disk or device I/O)
  Terminated,  // switched out for the last time
};
inline constexpr ThreadActivity kThreadActivities[] = {ThreadActivity::Running,   ThreadActivity::OffCpu,
                                                       ThreadActivity::Preempted, ThreadActivity::Sleeping,
                                                       ThreadActivity::BlockedIo, ThreadActivity::Terminated};

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
  // Time off the CPU in any state but Terminated.
  int64_t timeOffCpu(TimeInterval window = {}) const;
};

struct ThreadStateRead {
  std::vector<ThreadStates> threads;  // by globalTid
  bool missingTable = false;          // the file has no table::kSchedEvents
};

// The states of every thread with scheduling records, or those of PID (and TID) only.
ThreadStateRead readThreadStates(const Database& db, std::optional<uint32_t> pid = {},
                                 std::optional<uint32_t> tid = {});

const char* activityLabel(ThreadActivity activity);

}  // namespace gpuscope
