#include "core/analysis/verdict/run_activity.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/analysis/nsys/gpu_ops.h"
#include "core/identity/collective_names.h"
#include "core/identity/cuda_call_kind.h"
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
  auto statement =
      db.prepare("SELECT start, end, " + name + ", " + columnOr(db, table::kKernel, "globalPid") + " FROM " +
                 std::string(table::kKernel) + " WHERE start > 0 AND end >= start ORDER BY start");
  while (statement.step()) {
    int64_t process = statement.isNull(3) ? 0 : global_id::processOf(statement.int64(3));
    kernels.push_back({statement.int64(0), statement.int64(1), statement.int64(2), process});
  }
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
  std::vector<TimeInterval> copies;
  TimeNs coveredUntil = INT64_MIN;
  size_t calls = 0;
};

// A CUDA call by (globalPid, correlationId): the key GPU operations carry to name their launch.
struct CallKey {
  int64_t globalPid = 0;
  int64_t correlationId = 0;
  bool operator==(const CallKey&) const = default;
};
struct CallKeyHash {
  size_t operator()(const CallKey& key) const {
    return std::hash<int64_t>()(key.globalPid) ^ (std::hash<int64_t>()(key.correlationId) * 0x9E3779B97F4A7C15ULL);
  }
};
struct CallSite {
  int64_t globalTid = 0;
  TimeNs start = 0;
};
using CallSites = std::unordered_map<CallKey, CallSite, CallKeyHash>;

struct HostCalls {
  std::map<int64_t, OpenThread> threads;
  CallSites sites;
};

// The memory kinds of a memcpy (source, destination) or a memset (its memory, twice), by the call that made it.
struct MemoryKinds {
  bool memset = false;
  int64_t first = 0;
  int64_t second = 0;
};
using MemoryOps = std::unordered_map<CallKey, MemoryKinds, CallKeyHash>;

MemoryOps readMemoryOps(const Database& db) {
  MemoryOps ops;
  const std::pair<std::string_view, bool> tables[] = {{table::kMemcpy, false}, {table::kMemset, true}};
  for (const auto& [name, memset] : tables) {
    if (!db.hasTable(name)) continue;
    std::string kinds = memset ? columnOr(db, name, "memKind") + ", " + columnOr(db, name, "memKind")
                               : columnOr(db, name, "srcKind") + ", " + columnOr(db, name, "dstKind");
    auto statement = db.prepare("SELECT globalPid, correlationId, " + kinds + " FROM " + std::string(name) +
                                " WHERE start > 0 AND globalPid IS NOT NULL AND correlationId IS NOT NULL");
    while (statement.step()) {
      auto kind = [&](int column) { return statement.isNull(column) ? int64_t{-1} : statement.int64(column); };
      ops.try_emplace({global_id::processOf(statement.int64(0)), statement.int64(1)},
                      MemoryKinds{memset, kind(2), kind(3)});
    }
  }
  return ops;
}

// Whether the call NAME that made OP blocks the host: blocking_copies' definition (cuda_call_kind.h).
bool blocksHost(std::string_view name, const MemoryKinds& op) {
  std::string api = displayApiName(name);
  return op.memset ? memsetBlocksHost(api, op.first) : copyBlocksHost(api, op.first, op.second);
}

// Outermost calls per thread: a call that starts inside the previous outermost call is nested in it. Every
// call (nested or not) is kept by correlationId for the GPU work it launched; the first one wins.
// A call that made a memory operation blocking the host (blocksHost) is a copy call, nested or not, as the
// blocking_copies finding counts it.
HostCalls readCalls(const Database& db) {
  HostCalls calls;
  if (!db.hasTable(table::kRuntime) || !db.hasTable(table::kStringIds)) return calls;
  MemoryOps memoryOps = readMemoryOps(db);
  std::string correlation = columnOr(db, table::kRuntime, "correlationId");
  auto statement = db.prepare("SELECT r.globalTid, r.start, r.end, s.value, " + correlation + " FROM " +
                              std::string(table::kRuntime) +
                              " r JOIN StringIds s ON s.id = r.nameId WHERE r.start > 0 AND r.end >= r.start "
                              "ORDER BY r.globalTid, r.start, r.end DESC");
  while (statement.step()) {
    int64_t globalTid = statement.int64(0);
    TimeNs start = statement.int64(1), end = statement.int64(2);
    std::string_view name = statement.text(3);
    OpenThread& thread = calls.threads[globalTid];
    if (!statement.isNull(4)) {
      CallKey key{global_id::processOf(globalTid), statement.int64(4)};
      calls.sites.try_emplace(key, CallSite{globalTid, start});
      auto op = memoryOps.find(key);
      if (op != memoryOps.end() && blocksHost(name, op->second)) thread.copies.push_back({start, end});
    }
    if (start < thread.coveredUntil) continue;
    thread.coveredUntil = end;
    ++thread.calls;
    (isSynchronizingCall(name) ? thread.sync : thread.api).push_back({start, end});
  }
  return calls;
}

// Kernels, memcpys and memsets with the call that launched each, by start.
std::vector<GpuOp> readGpuOps(const Database& db, const CallSites& sites) {
  std::vector<GpuOp> ops;
  std::vector<int64_t> collectives = collectiveNameIds(db);
  const std::pair<std::string_view, GpuOpKind> tables[] = {
      {table::kKernel, GpuOpKind::Kernel}, {table::kMemcpy, GpuOpKind::Copy}, {table::kMemset, GpuOpKind::Memset}};
  for (const auto& [name, kind] : tables) {
    if (!db.hasTable(name)) continue;
    std::string nameId =
        kind == GpuOpKind::Kernel ? "coalesce(" + columnOr(db, name, "demangledName") + ", shortName)" : "0";
    auto statement = db.prepare("SELECT start, end, " + columnOr(db, name, "globalPid") + ", " +
                                columnOr(db, name, "correlationId") + ", " + nameId + " FROM " + std::string(name) +
                                " WHERE start > 0 AND end >= start");
    while (statement.step()) {
      GpuOp op{statement.int64(0), statement.int64(1), kind, statement.isNull(4) ? 0 : statement.int64(4), 0, 0};
      op.collective =
          kind == GpuOpKind::Kernel && std::binary_search(collectives.begin(), collectives.end(), op.nameId);
      if (!statement.isNull(2)) op.process = global_id::processOf(statement.int64(2));
      if (!statement.isNull(2) && !statement.isNull(3)) {
        auto site = sites.find({global_id::processOf(statement.int64(2)), statement.int64(3)});
        if (site != sites.end()) {
          op.launchTid = site->second.globalTid;
          op.launchStart = site->second.start;
        }
      }
      ops.push_back(op);
    }
  }
  std::sort(ops.begin(), ops.end(), [](const GpuOp& a, const GpuOp& b) { return a.start < b.start; });
  return ops;
}

template <typename Keep>
IntervalSet busyWhere(const std::vector<GpuOp>& ops, Keep keep) {
  std::vector<TimeInterval> spans;
  for (const GpuOp& op : ops)
    if (keep(op)) spans.push_back({op.start, op.end});
  return IntervalSet(std::move(spans));
}

IntervalSet busyOf(const std::vector<GpuOp>& ops, std::initializer_list<GpuOpKind> kinds) {
  return busyWhere(ops, [&](const GpuOp& op) { return std::find(kinds.begin(), kinds.end(), op.kind) != kinds.end(); });
}

// Every busy set but gpuBusy, from run.ops.
void busySetsOfOps(RunActivity& run) {
  run.kernelBusy = busyOf(run.ops, {GpuOpKind::Kernel});
  run.kernelOrCopyBusy = busyOf(run.ops, {GpuOpKind::Kernel, GpuOpKind::Copy});
  run.copyBusy = busyOf(run.ops, {GpuOpKind::Copy});
  run.memsetBusy = busyOf(run.ops, {GpuOpKind::Memset});
  run.collectiveBusy = busyWhere(run.ops, [](const GpuOp& op) { return op.collective; });
  run.computeBusy = busyWhere(run.ops, [](const GpuOp& op) { return op.kind == GpuOpKind::Kernel && !op.collective; });
}

void readGpuWork(const Database& db, const CallSites& sites, RunActivity& run) {
  run.gpuBusy = gpuBusyTime(db);
  run.kernels = readKernels(db);
  run.ops = readGpuOps(db, sites);
  busySetsOfOps(run);
}

// The short gaps between consecutive calls of CALLS (outermost calls of one thread, any kind).
IntervalSet dispatchGaps(const IntervalSet& api, const IntervalSet& sync) {
  std::vector<TimeInterval> calls = api.intervals();
  calls.insert(calls.end(), sync.intervals().begin(), sync.intervals().end());
  IntervalSet merged(std::move(calls));
  std::vector<TimeInterval> gaps;
  const auto& list = merged.intervals();
  for (size_t i = 1; i < list.size(); ++i) {
    TimeNs gap = list[i].start - list[i - 1].end;
    if (gap > 0 && gap < kDispatchGapNs) gaps.push_back({list[i - 1].end, list[i].start});
  }
  return IntervalSet(std::move(gaps));
}

HostThread hostThread(int64_t globalTid, OpenThread& calls, const std::unordered_map<int64_t, std::string>& names) {
  HostThread thread;
  thread.globalTid = globalTid;
  thread.pid = global_id::pid(globalTid);
  thread.tid = global_id::tid(globalTid);
  auto name = names.find(globalTid);
  if (name == names.end()) name = names.find(global_id::processOf(globalTid));
  if (name != names.end()) thread.name = name->second;
  thread.apiCalls = IntervalSet(std::move(calls.api));
  thread.syncCalls = IntervalSet(std::move(calls.sync));
  thread.copyCalls = IntervalSet(std::move(calls.copies));
  thread.dispatchGaps = dispatchGaps(thread.apiCalls, thread.syncCalls);
  thread.cudaTime = thread.apiCalls.length() + thread.syncCalls.length();
  thread.callCount = calls.calls;
  return thread;
}

}  // namespace

namespace {

bool cudaCallsFirst(const HostThread& a, const HostThread& b) { return a.cudaTime > b.cudaTime; }

// first/last and cudaFirst/cudaLast from the threads' calls and gpuBusy.
void setSpans(RunActivity& run) {
  TimeNs first = INT64_MAX, last = INT64_MIN;
  for (const HostThread& thread : run.threads) {
    for (const IntervalSet* set : {&thread.apiCalls, &thread.syncCalls}) {
      if (set->empty()) continue;
      first = std::min(first, set->intervals().front().start);
      last = std::max(last, set->intervals().back().end);
    }
  }
  TimeNs cudaFirst = first, cudaLast = last;
  if (!run.gpuBusy.empty()) {
    first = run.gpuBusy.intervals().front().start;
    last = run.gpuBusy.intervals().back().end;
    cudaFirst = std::min(cudaFirst, first);
    cudaLast = std::max(cudaLast, last);
  }
  if (first <= last) {
    run.first = first;
    run.last = last;
    run.cudaFirst = cudaFirst;
    run.cudaLast = cudaLast;
  }
}

bool kept(const std::vector<int64_t>& keep, int64_t process) {
  return std::binary_search(keep.begin(), keep.end(), process);
}

}  // namespace

RunActivity loadRunActivity(const Database& db) {
  RunActivity run;
  HostCalls calls = readCalls(db);
  readGpuWork(db, calls.sites, run);
  auto names = threadNames(db);
  for (auto& [globalTid, threadCalls] : calls.threads) run.threads.push_back(hostThread(globalTid, threadCalls, names));
  std::stable_sort(run.threads.begin(), run.threads.end(), cudaCallsFirst);
  setSpans(run);
  return run;
}

RunActivity loadRunActivity(const Database& db, const std::vector<int64_t>& processes) {
  RunActivity run = loadRunActivity(db);
  return processes.empty() ? run : activityOfProcesses(run, processes);
}

RunActivity activityOfProcesses(const RunActivity& run, const std::vector<int64_t>& keep) {
  RunActivity part;
  for (const GpuOp& op : run.ops)
    if (kept(keep, op.process)) part.ops.push_back(op);
  for (const KernelSpan& kernel : run.kernels)
    if (kept(keep, kernel.process)) part.kernels.push_back(kernel);
  for (const HostThread& thread : run.threads)
    if (kept(keep, global_id::processOf(thread.globalTid))) part.threads.push_back(thread);
  // The whole run's gpuBusy comes from nsys's rule view of the file; a part's from its own operations, which
  // are the same operations (start > 0).
  part.gpuBusy = busyWhere(part.ops, [](const GpuOp&) { return true; });
  busySetsOfOps(part);
  setSpans(part);
  return part;
}

std::string threadLabel(const HostThread& thread) {
  std::string ids = "pid " + std::to_string(thread.pid) + ", tid " + std::to_string(thread.tid);
  return thread.name.empty() ? ids : thread.name + " (" + ids + ")";
}

}  // namespace gpuscope
