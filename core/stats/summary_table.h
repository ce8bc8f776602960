#pragma once
// The shape shared by the time summaries (cuda_api_sum, osrt_sum, cuda_gpu_kern_sum, nvtx_sum, ...).
#include <string>
#include <vector>

#include "core/report/report_table.h"
#include "core/stats/stats_common.h"

namespace gpuscope {

struct SummaryLayout {
  std::string name;
  std::string title;
  std::string countTitle;                // "Num Calls", "Instances" or "Count"
  std::vector<std::string> labelTitles;  // the columns after the statistics, e.g. {"Name"}
};

// Time (%), Total Time (ns), <count>, Avg/Med/Min/Max/StdDev (ns), <labels>: one row per group, the
// largest total first (equal totals by label). Percentages are of the sum of all groups' totals.
ReportTable timeSummaryTable(const SummaryLayout& layout, const SampleGroups& groups);

}  // namespace gpuscope
