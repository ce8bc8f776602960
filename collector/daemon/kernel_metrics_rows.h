#pragma once
// GPUSCOPE_KERNEL_METRICS rows from the counters `record --metrics roofline` collected per launch.
#include <cstdint>
#include <string>

#include "collector/transport/counter_text.h"
#include "core/ncu/kernel_metrics.h"

namespace gpuscope {

// Where the recorded rows say their values came from (the table's source column).
inline constexpr std::string_view kRangeProfilerSource = "gpuscope record --metrics roofline (CUPTI range profiler)";

// FLOPs per precision, bytes per memory level and duration from counter values named as ncu names them
// ("dram__bytes.sum", ...), computed by the same code as `gpuscope import-ncu` (kernelMetricsFromNcu): FP64
// and FP32 and FP16 FLOPs are add + mul + 2 x fma; tensor FLOPs add up the tensor-path ops. A value is
// absent when none of its counters is among COUNTERS. Identity fields are left for the caller.
KernelMetrics kernelMetricsFromCounters(const transport::CounterValues& counters);

}  // namespace gpuscope
