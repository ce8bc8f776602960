// nvtx_kern_sum: kernels by the NVTX ranges they were launched in. A kernel counts for every range open on
// the launching thread that contains its API call; kernels launched outside any range get a row with an
// empty range. Rows go by range name, then thread, then total kernel time, largest first.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/api_calls.h"
#include "core/stats/nvtx_ranges.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_table.h"

namespace gpuscope {
namespace {

struct NvtxKernel {
  int64_t duration;
  int64_t globalTid;  // of the launching call
  std::string name;
};

// Range name, style, pid, tid, kernel name.
using GroupKey = std::tuple<std::string, std::string, int64_t, int64_t, std::string>;

struct NvtxKernelGroup {
  std::set<uint32_t> ranges;  // range instances that contain kernels of this group
  std::vector<int64_t> durations;
};

}  // namespace

ReportTable nvtxKernSum(const Database& db) {
  auto ranges = loadNvtxRanges(db);
  requireReportTable(db, table::kKernel);
  ApiCallIndex calls(db);
  std::vector<NvtxKernel> kernels;
  std::vector<ThreadSpan> launches;
  auto stmt = db.prepare(
      "SELECT k.end - k.start, k.globalPid, k.correlationId, s.value FROM "
      "CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS s ON s.id = k.demangledName "
      "WHERE k.globalPid IS NOT NULL AND k.correlationId IS NOT NULL");
  while (stmt.step()) {
    const ApiCall* call = calls.find(global_id::processOf(stmt.int64(1)), stmt.int64(2));
    if (!call) continue;
    kernels.push_back({stmt.int64(0), call->globalTid, std::string(stmt.text(3))});
    launches.push_back({call->globalTid, call->start, call->end});
  }

  std::map<GroupKey, NvtxKernelGroup> groups;
  auto enclosing = enclosingRanges(ranges, launches);
  for (size_t k = 0; k < kernels.size(); ++k) {
    int64_t pid = global_id::pid(kernels[k].globalTid), tid = global_id::tid(kernels[k].globalTid);
    if (enclosing[k].empty()) groups[{"", "", pid, tid, kernels[k].name}].durations.push_back(kernels[k].duration);
    for (uint32_t id : enclosing[k]) {
      auto& group = groups[{ranges[id].name, std::string(nvtxStyle(ranges[id])), pid, tid, kernels[k].name}];
      group.ranges.insert(id);
      group.durations.push_back(kernels[k].duration);
    }
  }

  ReportTable table{"nvtx_kern_sum", "NVTX Range Kernel Summary", {}, {}};
  for (const char* title : {"NVTX Range", "Style", "PID", "TID", "NVTX Inst", "Kern Inst", "Total Time (ns)"})
    table.columns.push_back({title, 0});
  appendStatisticColumns(table.columns, "", "ns");
  table.columns.push_back({"Kernel Name", 0});

  std::vector<std::pair<const GroupKey*, SampleSummary>> summaries;
  for (const auto& [key, group] : groups) summaries.emplace_back(&key, summarize(group.durations));
  std::stable_sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) {
    const auto& [nameA, styleA, pidA, tidA, kernelA] = *a.first;
    const auto& [nameB, styleB, pidB, tidB, kernelB] = *b.first;
    return std::tie(nameA, styleA, pidA, tidA, b.second.total) < std::tie(nameB, styleB, pidB, tidB, a.second.total);
  });
  for (const auto& [key, summary] : summaries) {
    const auto& [name, style, pid, tid, kernel] = *key;
    std::vector<ReportCell> row = {
        name, style, pid, tid, static_cast<int64_t>(groups.at(*key).ranges.size()), summary.count, summary.total};
    appendStatisticCells(row, summary);
    row.emplace_back(kernel);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace gpuscope
