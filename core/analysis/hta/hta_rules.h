#pragma once
// Holistic Trace Analysis's breakdowns (HTA 0.5.0, facebookresearch/HolisticTraceAnalysis) as
// analysis rules, on every trace gpuscope reads, with HTA's columns, names, units (microseconds) and
// row values, so that `gpuscope analyze --format csv` prints what HTA's dataframes hold.
#include <memory>
#include <vector>

#include "core/analysis/analysis_rule.h"

namespace gpuscope {

// temporal_breakdown, idle_time_breakdown, kernel_launch_stats, comm_comp_overlap.
std::vector<std::unique_ptr<AnalysisRule>> makeHtaRules();

std::unique_ptr<AnalysisRule> makeTemporalBreakdownRule();
std::unique_ptr<AnalysisRule> makeIdleTimeBreakdownRule();
std::unique_ptr<AnalysisRule> makeKernelLaunchStatsRule();
std::unique_ptr<AnalysisRule> makeCommCompOverlapRule();

}  // namespace gpuscope
