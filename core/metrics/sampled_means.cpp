#include "core/metrics/sampled_means.h"

#include "core/metrics/gpu_metric_names.h"

namespace gpuscope {

const SampledMean* SampledMeans::find(std::string_view metric) const {
  for (const SampledMean& mean : means)
    if (mean.metric == metric) return &mean;
  return nullptr;
}

SampledMeans sampledMeans(const GpuMetrics& metrics, int deviceId, TimeInterval interval, uint32_t hw) {
  return sampledMeans(metrics, deviceId, interval, hw, gpu_metric::kPerKernel);
}

SampledMeans sampledMeans(const GpuMetrics& metrics, int deviceId, TimeInterval interval, uint32_t hw,
                          std::span<const std::string_view> names) {
  SampledMeans out;
  const GpuMetricDevice* device = metrics.device(deviceId, hw);
  if (device == nullptr || device->metrics.empty()) return out;
  out.haveMetrics = true;
  out.frequencyHz = device->frequencyHz();
  out.samples = samplesInside(*device, device->metrics.front(), interval).count;
  if (out.samples < kLeastSamplesForMeans) return out;
  for (std::string_view name : names) {
    const MetricSeries* series = device->find(name);
    if (series == nullptr) continue;
    SeriesStats stats = samplesInside(*device, *series, interval);
    if (stats.count == 0) continue;
    out.means.push_back({name, gpu_metric::displayValue(name, stats.mean())});
  }
  return out;
}

}  // namespace gpuscope
