#include "core/analysis/hta/hta_trace.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "core/model/global_id.h"
#include "core/model/rank_table.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// Floor and ceiling of a / 1000 for any sign (C++ division truncates toward zero).
int64_t floorMicros(int64_t ns) { return ns / 1000 - (ns % 1000 < 0 ? 1 : 0); }
int64_t ceilMicros(int64_t ns) { return ns / 1000 + (ns % 1000 > 0 ? 1 : 0); }

// A GPU operation of a process with a correlation id: where to attach its launch call.
struct CallKey {
  int64_t globalPid;
  uint32_t correlation;
  bool operator==(const CallKey&) const = default;
};
struct CallKeyHash {
  size_t operator()(const CallKey& key) const {
    return std::hash<int64_t>()(key.globalPid) ^ (std::hash<uint32_t>()(key.correlation) * 0x9E3779B97F4A7C15ull);
  }
};

using OpsByProcess = std::map<int64_t, std::vector<HtaGpuOp>>;

HtaGpuOp gpuOp(const Statement& row, HtaKernelType type) {
  HtaGpuOp op;
  op.startNs = row.int64(1);
  op.endNs = row.int64(2);
  op.startUs = htaStartUs(op.startNs);
  op.endUs = htaEndUs(op.endNs);
  op.deviceId = static_cast<uint32_t>(row.int64(3));
  op.contextId = static_cast<uint32_t>(row.int64(4));
  op.streamId = static_cast<uint32_t>(row.int64(5));
  op.correlationId = static_cast<uint32_t>(row.int64(6));
  op.type = type;
  return op;
}

// Kernels are typed by their demangled name; copies and sets are HTA's "Memcpy ..." and "Memset ..." names.
void readGpuOps(const Database& db, const AnalysisWindow& window, OpsByProcess& ops) {
  std::string columns = "globalPid, start, end, deviceId, contextId, streamId, IFNULL(correlationId, 0)";
  std::string where = " WHERE start IS NOT NULL AND end IS NOT NULL AND " + window.sqlCondition("");
  if (db.hasTable(table::kKernel)) {
    auto rows = db.prepare("SELECT " + columns + ", (SELECT value FROM StringIds WHERE id = demangledName) FROM " +
                           std::string(table::kKernel) + where);
    while (rows.step()) {
      ops[global_id::processOf(rows.int64(0))].push_back(gpuOp(rows, htaKernelType(rows.text(7))));
    }
  }
  for (std::string_view memoryTable : {table::kMemcpy, table::kMemset}) {
    if (!db.hasTable(memoryTable)) continue;
    auto rows = db.prepare("SELECT " + columns + " FROM " + std::string(memoryTable) + where);
    while (rows.step()) ops[global_id::processOf(rows.int64(0))].push_back(gpuOp(rows, HtaKernelType::Memory));
  }
}

// The runtime or driver call of each operation's process with the operation's correlation id.
void attachLaunchCalls(const Database& db, OpsByProcess& ops) {
  if (!db.hasTable(table::kRuntime)) return;
  std::unordered_map<CallKey, HtaGpuOp*, CallKeyHash> waiting;
  for (auto& [globalPid, list] : ops) {
    for (HtaGpuOp& op : list) {
      if (op.correlationId != 0) waiting.emplace(CallKey{globalPid, op.correlationId}, &op);
    }
  }
  auto rows = db.prepare(
      "SELECT globalTid, correlationId, start, end, (SELECT value FROM StringIds WHERE id = nameId) "
      "FROM " +
      std::string(table::kRuntime) +
      " WHERE correlationId IS NOT NULL AND correlationId != 0 AND start IS NOT NULL AND end IS "
      "NOT NULL");
  while (rows.step() && !waiting.empty()) {
    auto found = waiting.find({global_id::processOf(rows.int64(0)), static_cast<uint32_t>(rows.int64(1))});
    if (found == waiting.end()) continue;
    HtaLaunchCall call;
    call.startNs = rows.int64(2);
    call.endNs = rows.int64(3);
    call.startUs = htaStartUs(call.startNs);
    call.endUs = htaEndUs(call.endNs);
    call.tid = global_id::tid(rows.int64(0));
    call.kind = htaLaunchKind(rows.text(4));
    found->second->launch = call;
    waiting.erase(found);
  }
}

// The ProfilerStep ranges of DB (torch.profiler's iteration annotations, CPU and GPU side alike): how many
// names they have, and where the last one starts in each process.
struct ProfilerSteps {
  size_t names = 0;
  std::map<int64_t, TimeNs> lastStartByProcess;
};

ProfilerSteps readProfilerSteps(const Database& db) {
  ProfilerSteps steps;
  if (!db.hasTable(table::kNvtx) || !hasColumn(db, table::kNvtx, "text")) return steps;
  std::string name = hasColumn(db, table::kNvtx, "textId") && db.hasTable(table::kStringIds)
                         ? "COALESCE(text, (SELECT value FROM StringIds WHERE id = textId))"
                         : "text";
  auto rows = db.prepare("SELECT globalTid, start, " + name + " AS name FROM " + std::string(table::kNvtx) +
                         " WHERE name LIKE '%ProfilerStep%' AND start IS NOT NULL AND globalTid IS NOT NULL");
  std::set<std::string, std::less<>> names;
  while (rows.step()) {
    names.emplace(rows.text(2));
    TimeNs& last =
        steps.lastStartByProcess.try_emplace(global_id::processOf(rows.int64(0)), rows.int64(1)).first->second;
    last = std::max(last, rows.int64(1));
  }
  steps.names = names.size();
  return steps;
}

// HTA 0.5.0 analyzes only the iterations the profiler traced whole: where the trace names two ProfilerSteps
// or more, it keeps the GPU operations whose launch call starts before the last step starts (its
// TraceAnalysis default, include_last_profiler_step=False; the GPU-side annotation of the last step counts
// as a start too). Operations with no launch call are dropped there as well.
void keepTracedIterations(const Database& db, OpsByProcess& ops) {
  ProfilerSteps steps = readProfilerSteps(db);
  if (steps.names < 2) return;
  for (auto& [globalPid, list] : ops) {
    auto last = steps.lastStartByProcess.find(globalPid);
    if (last == steps.lastStartByProcess.end()) continue;
    int64_t lastStartUs = htaStartUs(last->second);
    std::erase_if(list, [&](const HtaGpuOp& op) { return !op.launch || op.launch->startUs >= lastStartUs; });
  }
}

// distributedInfo.rank of an imported PyTorch profiler trace, else 0.
int64_t recordedRank(const Database& db) {
  if (!db.hasTable(table::kGpuscopeMeta)) return 0;
  auto rows = db.prepare("SELECT value FROM " + std::string(table::kGpuscopeMeta) + " WHERE name = 'distributed_rank'");
  if (!rows.step()) return 0;
  std::string_view text = rows.text(0);
  int64_t rank = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), rank);
  return error == std::errc() && end == text.data() + text.size() ? rank : 0;
}

}  // namespace

int64_t htaStartUs(TimeNs start) { return ceilMicros(start); }
int64_t htaEndUs(TimeNs end) { return floorMicros(end); }

HtaLaunchKind htaLaunchKind(std::string_view apiName) {
  size_t tag = apiName.rfind("_v");
  if (tag != std::string_view::npos && tag + 2 < apiName.size() &&
      std::all_of(apiName.begin() + static_cast<std::ptrdiff_t>(tag) + 2, apiName.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    apiName = apiName.substr(0, tag);
  }
  if (apiName == "cudaLaunchKernel" || apiName == "cudaLaunchKernelExC") return HtaLaunchKind::KernelLaunch;
  if (apiName == "cudaMemcpyAsync" || apiName == "cudaMemsetAsync") return HtaLaunchKind::MemoryAsync;
  return HtaLaunchKind::Other;
}

std::vector<HtaRank> loadHtaRanks(const Database& db, const AnalysisWindow& window) {
  OpsByProcess ops;
  readGpuOps(db, window, ops);
  attachLaunchCalls(db, ops);
  keepTracedIterations(db, ops);
  std::vector<HtaRank> ranks;
  int64_t first = ops.size() == 1 ? recordedRank(db) : 0;
  const std::vector<RankRow> rankRows = readRankRows(db);  // a merge of rank files says each process's rank
  for (auto& [globalPid, list] : ops) {
    std::sort(list.begin(), list.end(), [](const HtaGpuOp& a, const HtaGpuOp& b) {
      if (a.startUs != b.startUs) return a.startUs < b.startUs;
      return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs < b.endNs;
    });
    const RankRow* row = rankOfGlobalId(rankRows, globalPid);
    int64_t rank = row ? row->rank : first + static_cast<int64_t>(ranks.size());
    ranks.push_back({rank, globalPid, std::move(list)});
  }
  return ranks;
}

}  // namespace gpuscope
