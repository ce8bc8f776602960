#pragma once
// GPUSCOPE_KERNEL_METRICS rows from the counters `record --metrics roofline` collected per launch.
#include <cstdint>
#include <string>

#include "collector/transport/counter_text.h"
#include "core/roofline/roofline_counters.h"

namespace gpuscope {

// Where the recorded rows say their values came from (the table's source column).
inline constexpr std::string_view kRangeProfilerSource = "gpuscope record --metrics roofline (CUPTI range profiler)";

// The row of one recorded launch: core's kernelMetricsFromCounters (the arithmetic `gpuscope import-ncu` uses
// too), its source set to kRangeProfilerSource. Identity fields are left for the caller.
KernelMetrics recordedKernelMetrics(const transport::CounterValues& counters);

}  // namespace gpuscope
