#include "collector/gpu_metrics/metric_rows.h"

#include <cmath>

namespace gpuscope::gpu_metrics {

int64_t storedValue(double value) {
  if (!(value > 0)) return 0;  // NaN too
  return std::llround(value);
}

void appendSampleRows(const MetricSet& set, uint32_t deviceId, int64_t start, std::span<const double> values,
                      std::vector<GpuMetricRow>& rows) {
  int64_t typeId = gpuMetricTypeId(deviceId);
  size_t count = std::min(values.size(), set.counters.size());
  for (size_t i = 0; i < count; ++i) rows.push_back({start, typeId, set.counters[i].metricId, storedValue(values[i])});
}

std::vector<GpuMetricNameRow> metricNameRows(const MetricSet& set, uint32_t deviceId) {
  std::vector<GpuMetricNameRow> rows;
  int64_t typeId = gpuMetricTypeId(deviceId);
  for (const MetricCounter& counter : set.counters) rows.push_back({typeId, typeId, counter.metricId, counter.name});
  return rows;
}

}  // namespace gpuscope::gpu_metrics
