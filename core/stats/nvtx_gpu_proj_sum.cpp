// nvtx_gpu_proj_sum: NVTX ranges projected onto the GPU. A GPU operation (kernel, memcpy, memset) belongs to
// every range open on the thread whose API call launched it, when the range contains that call. A range's
// projection runs from the start of its first GPU operation to the end of its last; ranges without GPU
// operations have no projection and are left out, also when counting a range's children. As in nsys, the
// operations one API call launched count as one (a cudaGraphLaunch's kernels share its correlation id).
#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/api_calls.h"
#include "core/stats/nvtx_ranges.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_sources.h"

namespace gpuscope {
namespace {

struct Projection {
  int64_t start = std::numeric_limits<int64_t>::max();
  int64_t end = std::numeric_limits<int64_t>::min();
  int64_t operations = 0;
  int64_t level = 0;
  int64_t children = 0;
};

struct GpuOperation {
  int64_t start, end;
};

// GPU operations with the API call that launched them, as parallel vectors; the operations of one call are
// one entry spanning them all.
void loadOperations(const Database& db, const ApiCallIndex& calls, std::vector<GpuOperation>& operations,
                    std::vector<ThreadSpan>& launches) {
  std::unordered_map<const ApiCall*, size_t> entryOfCall;
  for (std::string_view gpuTable : tablesIn({TableGroup::GpuWork})) {
    if (!db.hasTable(gpuTable)) continue;
    auto stmt = db.prepare("SELECT start, end, globalPid, correlationId FROM \"" + std::string(gpuTable) +
                           "\" WHERE globalPid IS NOT NULL AND correlationId IS NOT NULL");
    while (stmt.step()) {
      const ApiCall* call = calls.find(global_id::processOf(stmt.int64(2)), stmt.int64(3));
      if (!call) continue;
      auto [entry, added] = entryOfCall.try_emplace(call, operations.size());
      if (!added) {
        operations[entry->second].start = std::min(operations[entry->second].start, stmt.int64(0));
        operations[entry->second].end = std::max(operations[entry->second].end, stmt.int64(1));
        continue;
      }
      operations.push_back({stmt.int64(0), stmt.int64(1)});
      launches.push_back({call->globalTid, call->start, call->end});
    }
  }
}

// Stack depth and number of direct children of each projected range, among the projected ranges of its thread.
void nestProjections(const std::vector<NvtxRange>& ranges, std::map<uint32_t, Projection>& projections) {
  std::vector<uint32_t> order;
  for (const auto& [id, projection] : projections) order.push_back(id);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(ranges[a].globalTid, ranges[a].start, ranges[b].end) <
           std::tie(ranges[b].globalTid, ranges[b].start, ranges[a].end);
  });
  std::vector<uint32_t> stack;
  for (uint32_t id : order) {
    const auto& range = ranges[id];
    while (!stack.empty() &&
           (ranges[stack.back()].globalTid != range.globalTid || ranges[stack.back()].end < range.end))
      stack.pop_back();
    projections[id].level = static_cast<int64_t>(stack.size());
    if (!stack.empty()) ++projections[stack.back()].children;
    stack.push_back(id);
  }
}

double average(int64_t sum, size_t count) { return sqlRound(static_cast<double>(sum) / static_cast<double>(count), 1); }

}  // namespace

NvtxProjectionGroups nvtxProjectionGroups(const Database& db) {
  auto ranges = loadNvtxRanges(db);
  ApiCallIndex calls(db);
  std::vector<GpuOperation> operations;
  std::vector<ThreadSpan> launches;
  loadOperations(db, calls, operations, launches);

  std::map<uint32_t, Projection> projections;
  auto enclosing = enclosingRanges(ranges, launches);
  for (size_t op = 0; op < operations.size(); ++op) {
    for (uint32_t id : enclosing[op]) {
      auto& projection = projections[id];
      projection.start = std::min(projection.start, operations[op].start);
      projection.end = std::max(projection.end, operations[op].end);
      ++projection.operations;
    }
  }
  nestProjections(ranges, projections);

  NvtxProjectionGroups groups;
  for (const auto& [id, projection] : projections) {
    auto& group = groups[{ranges[id].name, std::string(nvtxStyle(ranges[id]))}];
    group.projected.push_back(saturatingSub(projection.end, projection.start));
    group.rangeTime = saturatingAdd(group.rangeTime, saturatingSub(ranges[id].end, ranges[id].start));
    group.operations += projection.operations;
    group.levels += projection.level;
    group.children += projection.children;
  }
  return groups;
}

ReportTable nvtxGpuProjTable(const NvtxProjectionGroups& groups) {
  ReportTable table{"nvtx_gpu_proj_sum", "NVTX GPU Projection Summary", {}, {}};
  table.columns = {
      {"Range", 0}, {"Style", 0}, {"Total Proj Time (ns)", 0}, {"Total Range Time (ns)", 0}, {"Range Instances", 0}};
  appendStatisticColumns(table.columns, "Proj ", "ns");
  for (const char* title : {"Total GPU Ops", "Avg GPU Ops", "Avg Range Lvl", "Avg Num Child"})
    table.columns.push_back({title, 1});

  std::vector<std::pair<int64_t, std::vector<ReportCell>>> rows;  // by total projected time
  for (const auto& [key, group] : groups) {
    auto summary = summarize(group.projected);
    size_t n = group.projected.size();
    std::vector<ReportCell> row = {key.first, key.second, summary.total, group.rangeTime, summary.count};
    appendStatisticCells(row, summary);
    row.insert(row.end(),
               {group.operations, average(group.operations, n), average(group.levels, n), average(group.children, n)});
    rows.emplace_back(summary.total, std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& row : rows) table.rows.push_back(std::move(row.second));
  return table;
}

ReportTable nvtxGpuProjSum(const Database& db) { return nvtxGpuProjTable(nvtxProjectionGroups(db)); }

}  // namespace gpuscope
