#include "core/ncu/ncu_kernel_metrics.h"

#include "core/ncu/ncu_report.h"

namespace gpuscope {

CounterValues ncuCounterValues(const NcuKernel& kernel) {
  CounterValues counters;
  counters.reserve(kernel.metrics.size());
  for (const auto& metric : kernel.metrics)
    if (metric.value) counters.emplace_back(metric.name, *metric.value);
  return counters;
}

KernelMetrics kernelMetricsFromNcu(const NcuKernel& kernel) {
  KernelMetrics metrics = kernelMetricsFromCounters(ncuCounterValues(kernel));
  metrics.kernelName = kernel.name;
  metrics.sourceId = kernel.id;
  return metrics;
}

}  // namespace gpuscope
