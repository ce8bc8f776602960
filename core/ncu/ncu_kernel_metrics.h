#pragma once
// The ncu producer of roofline rows: one `ncu --csv` kernel's metrics through the shared counter arithmetic.
#include "core/roofline/kernel_metrics.h"
#include "core/roofline/roofline_counters.h"

namespace gpuscope {

struct NcuKernel;

// The metrics of KERNEL that have a value, by name, in the report's order.
CounterValues ncuCounterValues(const NcuKernel& kernel);

// The row for KERNEL: kernelMetricsFromCounters of its values, named and numbered as ncu does (its identity
// fields left for the caller to fill).
KernelMetrics kernelMetricsFromNcu(const NcuKernel& kernel);

}  // namespace gpuscope
