#include "collector/daemon/kernel_metrics_rows.h"

#include "core/ncu/ncu_report.h"

namespace gpuscope {

KernelMetrics kernelMetricsFromCounters(const transport::CounterValues& counters) {
  // Counters look like one kernel of an `ncu --metrics ... --csv` report: one arithmetic for both.
  NcuKernel kernel;
  for (const auto& [name, value] : counters) {
    NcuMetric metric;
    metric.name = name;
    metric.value = value;
    kernel.metrics.push_back(std::move(metric));
  }
  KernelMetrics metrics = kernelMetricsFromNcu(kernel);
  metrics.sourceId = -1;
  metrics.source = std::string(kRangeProfilerSource);
  return metrics;
}

}  // namespace gpuscope
