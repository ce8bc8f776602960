#pragma once
// HostActivity: what the host's threads did, for the timeline's thread-state rows: per thread, its
// scheduling states (thread_states.h) and the times of its CPU samples (sample_reader.h), in time-sorted
// columns that answer "how long in each state between two times" and "which samples between two times"
// by binary search, so a frame costs the pixels it paints, not the spans of the trace. Read once from
// the file by hostActivity(trace), on first use: a file without sampling tables costs two table look-ups.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model/trace_types.h"
#include "core/samples/cpu_samples.h"
#include "core/samples/thread_states.h"

namespace gpuscope {

class Database;
class Trace;

inline constexpr size_t kThreadActivityCount = std::size(kThreadActivities);
using ActivityTimes = std::array<int64_t, kThreadActivityCount>;  // by ThreadActivity's value

struct ThreadActivityColumns {
  int64_t globalTid = 0;  // as the sampling tables give it
  std::string name;       // from ThreadNames, where the file names the thread
  // The state spans, in time order, none overlapping.
  std::vector<TimeNs> spanStart;
  std::vector<TimeNs> spanEnd;
  std::vector<ThreadActivity> activity;
  // before[a][i]: time spent in activity a by spans [0, i); size spans + 1 each.
  std::array<std::vector<int64_t>, kThreadActivityCount> before;
  // The thread's samples, by time: when each was taken and its index into HostActivity::samples().
  std::vector<TimeNs> sampleTime;
  std::vector<uint32_t> sampleIndex;

  size_t spanCount() const { return spanStart.size(); }
  bool hasStates() const { return !spanStart.empty(); }
  // The span that holds T, if any.
  std::optional<size_t> spanAt(TimeNs t) const;
  // Time in ACTIVITY within [FROM, TO).
  int64_t timeIn(ThreadActivity activity, TimeNs from, TimeNs to) const;
  // The samples taken in [FROM, TO), as a range of positions in sampleTime.
  std::pair<size_t, size_t> samplesIn(TimeNs from, TimeNs to) const;
  // For each of COLUMNS columns of NS_PER_COLUMN from START (pixel columns), the time in each activity
  // and the samples taken there: two binary searches per column, whatever the spans and samples in it.
  void timePerColumn(TimeNs start, double nsPerColumn, size_t columns, std::vector<ActivityTimes>& out) const;
  void samplesPerColumn(TimeNs start, double nsPerColumn, size_t columns, std::vector<uint32_t>& out) const;
  // The position in sampleTime of the sample nearest T, if one lies within WITHIN of it.
  std::optional<size_t> nearestSample(TimeNs t, TimeNs within) const;

 private:
  int64_t timeBefore(size_t activityIndex, TimeNs t) const;
  void timeBeforeEach(TimeNs t, ActivityTimes& out) const;
};

class HostActivity {
 public:
  // The states and samples of every thread in DB; empty when the file has neither table.
  static HostActivity read(const Database& db);

  bool empty() const { return threads_.empty(); }
  const std::vector<ThreadActivityColumns>& threads() const { return threads_; }
  // The thread with GLOBALTID's hw, pid and tid (its vm field aside: the sampling tables and the
  // API tables of one recording may spell it differently), or null.
  const ThreadActivityColumns* thread(int64_t globalTid) const;
  const CpuSamples& samples() const { return samples_; }

 private:
  static int64_t keyOf(int64_t globalTid);
  std::vector<ThreadActivityColumns> threads_;
  std::unordered_map<int64_t, size_t> byKey_;
  CpuSamples samples_;
};

// TRACE's host threads' scheduling states and CPU samples, read from its file on the first call, once,
// whichever thread asks first, and kept with the trace (Trace::memo); empty for a file without them, or
// whose sampling tables cannot be read.
const HostActivity& hostActivity(const Trace& trace);

}  // namespace gpuscope
