#include "core/analysis/verdict/run_activity.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/analysis/nsys/gpu_ops.h"
#include "core/analysis/verdict/cuda_call_kind.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

IntervalSet gpuBusyTime(const Database& db) {
  std::vector<TimeInterval> all;
  for (const auto& [context, ops] : gpuOpsByContext(db, AnalysisWindow{})) {
    for (const TimeInterval& op : ops) all.push_back({op.start, op.end});
  }
  return IntervalSet(std::move(all));
}

std::vector<KernelSpan> readKernels(const Database& db) {
  std::vector<KernelSpan> kernels;
  if (!db.hasTable(table::kKernel)) return kernels;
  std::string name = "coalesce(" + columnOr(db, table::kKernel, "demangledName") + ", shortName)";
  auto statement = db.prepare("SELECT start, end, " + name + " FROM " + std::string(table::kKernel) +
                              " WHERE start > 0 AND end >= start ORDER BY start");
  while (statement.step()) kernels.push_back({statement.int64(0), statement.int64(1), statement.int64(2)});
  return kernels;
}

std::unordered_map<int64_t, std::string> threadNames(const Database& db) {
  std::unordered_map<int64_t, std::string> names;
  if (db.hasTable(table::kProcesses)) {
    auto statement = db.prepare("SELECT globalPid, name FROM PROCESSES WHERE name IS NOT NULL");
    while (statement.step()) names[statement.int64(0)] = std::string(statement.text(1));
  }
  if (db.hasTable(table::kThreadNames) && db.hasTable(table::kStringIds)) {
    auto statement = db.prepare("SELECT t.globalTid, s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId");
    while (statement.step()) names[statement.int64(0)] = std::string(statement.text(1));
  }
  return names;
}

struct OpenThread {
  std::vector<TimeInterval> api;
  std::vector<TimeInterval> sync;
  TimeNs coveredUntil = INT64_MIN;
  size_t calls = 0;
};

// Outermost calls per thread: a call that starts inside the previous outermost call is nested in it.
std::map<int64_t, OpenThread> readCalls(const Database& db) {
  std::map<int64_t, OpenThread> threads;
  if (!db.hasTable(table::kRuntime) || !db.hasTable(table::kStringIds)) return threads;
  auto statement = db.prepare("SELECT r.globalTid, r.start, r.end, s.value FROM " + std::string(table::kRuntime) +
                              " r JOIN StringIds s ON s.id = r.nameId WHERE r.start > 0 AND r.end >= r.start "
                              "ORDER BY r.globalTid, r.start, r.end DESC");
  while (statement.step()) {
    OpenThread& thread = threads[statement.int64(0)];
    TimeNs start = statement.int64(1), end = statement.int64(2);
    if (start < thread.coveredUntil) continue;
    thread.coveredUntil = end;
    ++thread.calls;
    (isSynchronizingCall(statement.text(3)) ? thread.sync : thread.api).push_back({start, end});
  }
  return threads;
}

}  // namespace

RunActivity loadRunActivity(const Database& db) {
  RunActivity run;
  run.gpuBusy = gpuBusyTime(db);
  run.kernels = readKernels(db);
  auto names = threadNames(db);
  TimeNs first = INT64_MAX, last = INT64_MIN;
  for (auto& [globalTid, calls] : readCalls(db)) {
    HostThread thread;
    thread.globalTid = globalTid;
    thread.pid = global_id::pid(globalTid);
    thread.tid = global_id::tid(globalTid);
    auto name = names.find(globalTid);
    if (name == names.end()) name = names.find(global_id::processOf(globalTid));
    if (name != names.end()) thread.name = name->second;
    thread.apiCalls = IntervalSet(std::move(calls.api));
    thread.syncCalls = IntervalSet(std::move(calls.sync));
    thread.cudaTime = thread.apiCalls.length() + thread.syncCalls.length();
    thread.callCount = calls.calls;
    for (const IntervalSet* set : {&thread.apiCalls, &thread.syncCalls}) {
      if (set->empty()) continue;
      first = std::min(first, set->intervals().front().start);
      last = std::max(last, set->intervals().back().end);
    }
    run.threads.push_back(std::move(thread));
  }
  std::stable_sort(run.threads.begin(), run.threads.end(),
                   [](const HostThread& a, const HostThread& b) { return a.cudaTime > b.cudaTime; });
  if (!run.gpuBusy.empty()) {
    first = run.gpuBusy.intervals().front().start;
    last = run.gpuBusy.intervals().back().end;
  }
  if (first <= last) {
    run.first = first;
    run.last = last;
  }
  return run;
}

std::string threadLabel(const HostThread& thread) {
  std::string ids = "pid " + std::to_string(thread.pid) + ", tid " + std::to_string(thread.tid);
  return thread.name.empty() ? ids : thread.name + " (" + ids + ")";
}

}  // namespace gpuscope
