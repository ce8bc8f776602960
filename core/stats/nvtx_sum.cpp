// nvtx_sum: time spent in NVTX ranges, by range name and style.
#include "core/stats/nvtx_ranges.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_sources.h"

namespace gpuscope {

SummaryLayout nvtxSumLayout() { return {"nvtx_sum", "NVTX Range Summary", "Instances", {"Style", "Range"}}; }

SampleGroups nvtxSumSamples(const Database& db) {
  SampleGroups groups;
  for (const auto& range : loadNvtxRanges(db))
    groups[{std::string(nvtxStyle(range)), range.name}].push_back(saturatingSub(range.end, range.start));
  return groups;
}

ReportTable nvtxSum(const Database& db) { return timeSummaryTable(nvtxSumLayout(), nvtxSumSamples(db)); }

}  // namespace gpuscope
