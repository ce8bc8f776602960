#include "collector/daemon/kernel_metrics_rows.h"

namespace gpuscope {

KernelMetrics recordedKernelMetrics(const transport::CounterValues& counters) {
  KernelMetrics metrics = kernelMetricsFromCounters(counters);
  metrics.source = std::string(kRangeProfilerSource);
  return metrics;
}

}  // namespace gpuscope
