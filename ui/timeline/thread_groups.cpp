#include "ui/timeline/thread_groups.h"

#include <algorithm>

#include "core/identity/profiler_threads.h"
#include "core/model/global_id.h"
#include "core/samples/sample_classes.h"

namespace gpuscope::ui {
namespace {

// Whether the thread ran a tenth of the time it was observed or more (sampled at all, where the file has
// samples but no scheduling records).
bool keptACpuBusy(const ThreadActivityColumns& thread) {
  if (!thread.hasStates()) return !thread.sampleTime.empty();
  TimeNs from = thread.spanStart.front(), to = thread.spanEnd.back();
  return thread.timeIn(ThreadActivity::Running, from, to) * 10 >= to - from;
}

// The threads of PROCESS that get rows: those with events, then those the file knows only by their
// samples or scheduling (a thread that computes without a traced call), by tid.
std::vector<ThreadInfo> threadsWithRows(const ProcessInfo& process, const HostActivity& host) {
  std::vector<ThreadInfo> threads;
  std::vector<ThreadInfo> sampledOnly;
  for (const ThreadInfo& thread : process.threads) {
    if (!thread.tracks.empty())
      threads.push_back(thread);
    else if (thread.tid != 0 && host.thread(thread.globalTid))
      sampledOnly.push_back(thread);
  }
  for (const ThreadActivityColumns& activity : host.threads()) {
    int64_t id = activity.globalTid;
    if (global_id::pid(id) != process.pid || global_id::hw(id) != global_id::hw(process.globalPid)) continue;
    auto same = [&](const ThreadInfo& thread) { return thread.tid == global_id::tid(id); };
    if (std::any_of(threads.begin(), threads.end(), same) || std::any_of(sampledOnly.begin(), sampledOnly.end(), same))
      continue;
    ThreadInfo thread;
    thread.globalTid = id;
    thread.tid = global_id::tid(id);
    thread.name = activity.name;
    sampledOnly.push_back(std::move(thread));
  }
  std::sort(sampledOnly.begin(), sampledOnly.end(),
            [](const ThreadInfo& a, const ThreadInfo& b) { return a.tid < b.tid; });
  threads.insert(threads.end(), sampledOnly.begin(), sampledOnly.end());
  return threads;
}

// Whether nine in ten of the thread's samples or more were in an idle thread pool's wait loop: an OpenBLAS or
// OpenMP worker that spun, waiting for work, all run (it keeps a CPU busy doing nothing).
bool spunIdleInAPool(const ThreadActivityColumns& thread, const HostActivity& host, const CleanStacks& stacks) {
  if (thread.sampleIndex.empty()) return false;
  size_t idle = 0;
  for (uint32_t s : thread.sampleIndex) idle += idlePoolOf(host.samples(), stacks.stackOf(s)).has_value() ? 1 : 0;
  return idle * 10 >= thread.sampleIndex.size() * 9;
}

}  // namespace

bool onlyWaited(const Trace& trace, const ThreadInfo& thread, const HostActivity& host, const CleanStacks& stacks) {
  bool onlyOsRuntime = std::all_of(thread.tracks.begin(), thread.tracks.end(), [&](uint32_t t) {
    return t < trace.tracks().size() && trace.tracks()[t].kind == TrackKind::OsRuntime;
  });
  if (!onlyOsRuntime) return false;
  const ThreadActivityColumns* activity = host.thread(thread.globalTid);
  return !activity || !keptACpuBusy(*activity) || spunIdleInAPool(*activity, host, stacks);
}

namespace {

// A thread did nothing when it only waited; the process-wide row (tid 0) holds what no thread owns and stays.
bool didNothing(const Trace& trace, const ThreadInfo& thread, const HostActivity& host, const CleanStacks& stacks) {
  return thread.tid != 0 && onlyWaited(trace, thread, host, stacks);
}

}  // namespace

ThreadGroups groupThreads(const Trace& trace, const ProcessInfo& process, const HostActivity& host,
                          const CleanStacks& stacks) {
  ThreadGroups groups;
  for (ThreadInfo& thread : threadsWithRows(process, host)) {
    if (isProfilerThread(thread.name))
      groups.profiler.push_back(std::move(thread));
    else if (didNothing(trace, thread, host, stacks))
      groups.idle.push_back(std::move(thread));
    else
      groups.working.push_back(std::move(thread));
  }
  return groups;
}

int64_t threadWeight(const Trace& trace, const ThreadInfo& thread, const HostActivity& host) {
  int64_t weight = 0;
  for (uint32_t t : thread.tracks)
    if (t < trace.tracks().size()) weight += static_cast<int64_t>(trace.tracks()[t].eventCount());
  if (const ThreadActivityColumns* activity = host.thread(thread.globalTid))
    weight += static_cast<int64_t>(activity->sampleTime.size());
  return weight;
}

}  // namespace gpuscope::ui
