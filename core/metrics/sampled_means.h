#pragma once
// The GPU's sampled metrics averaged over one stretch of its time (a kernel, a judged window): what a kernel's
// details, the kernel table and the verdict read. Sampled means describe the whole GPU while the stretch ran,
// not one launch alone as ncu's replay does; every figure says so where it is shown.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "core/metrics/gpu_metrics.h"
#include "core/model/time_interval.h"

namespace gpuscope {

// Fewer samples than this inside a kernel, and its means are not shown: the kernel is too short for the rate.
inline constexpr size_t kLeastSamplesForMeans = 3;

struct SampledMean {
  std::string_view metric;  // gpu_metric:: name
  double mean = 0;          // in the metric's display unit (gpu_metric::displayValue)
};

struct SampledMeans {
  bool haveMetrics = false;        // the file has GPU metrics for this GPU
  size_t samples = 0;              // samples wholly inside the stretch
  double frequencyHz = 0;          // the GPU's sampling rate
  std::vector<SampledMean> means;  // of gpu_metric::kPerKernel (or the names asked for) the GPU has; empty when
                                   // samples < kLeastSamplesForMeans
  bool tooShort() const { return haveMetrics && samples < kLeastSamplesForMeans; }
  const SampledMean* find(std::string_view metric) const;
};

// The means of NAMES (gpu_metric::kPerKernel by default) over INTERVAL on the samples of GPU DEVICE_ID of host HW
// (GpuMetrics::device).
SampledMeans sampledMeans(const GpuMetrics& metrics, int deviceId, TimeInterval interval, uint32_t hw = 0);
SampledMeans sampledMeans(const GpuMetrics& metrics, int deviceId, TimeInterval interval, uint32_t hw,
                          std::span<const std::string_view> names);

}  // namespace gpuscope
