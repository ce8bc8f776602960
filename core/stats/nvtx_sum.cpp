// nvtx_sum: time spent in NVTX ranges, by range name and style.
#include "core/stats/nvtx_ranges.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_table.h"

namespace gpuscope {

ReportTable nvtxSum(const Database& db) {
  SampleGroups groups;
  for (const auto& range : loadNvtxRanges(db))
    groups[{std::string(nvtxStyle(range)), range.name}].push_back(saturatingSub(range.end, range.start));
  return timeSummaryTable({"nvtx_sum", "NVTX Range Summary", "Instances", {"Style", "Range"}}, groups);
}

}  // namespace gpuscope
