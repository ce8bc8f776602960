#pragma once
// GpuMetrics: the GPU hardware metrics of a trace (nsys's GPU_METRICS named by TARGET_INFO_GPU_METRICS, as nsys
// --gpu-metrics-devices and gpuscope record --gpu-metrics write them), one MetricSeries per counter per GPU.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/metrics/metric_series.h"
#include "core/model/time_interval.h"

namespace gpuscope {

class Database;
class Trace;

// The counters of one GPU: its series in the timeline's order (gpu_metric::kTimelineOrder, then the file's).
struct GpuMetricDevice {
  int64_t typeId = 0;  // GPU_METRICS.typeId: a global id whose hw field tells hosts apart in a merged file
  int deviceId = 0;    // its low byte: TARGET_INFO_GPU.id
  TimeNs period = 0;   // the median spacing of its samples: 1 / the sampling frequency
  std::vector<MetricSeries> metrics;

  const MetricSeries* find(std::string_view name) const;
  double frequencyHz() const { return period > 0 ? 1e9 / static_cast<double>(period) : 0.0; }
};

struct GpuMetrics {
  std::vector<GpuMetricDevice> devices;
  // Rows that could not be kept, and why: a NULL or non-integer cell, a metric TARGET_INFO_GPU_METRICS does not
  // name. Counted, never shown as values.
  size_t refusedRows = 0;
  std::string refusedWhy;
  // Why the file's tables could not be read at all ("" when they were, or when the file has none).
  std::string unreadable;

  bool empty() const { return devices.empty(); }
  size_t sampleCount() const;
  // The GPU with DEVICE_ID on host HW (the hw field of its typeId: 0 in a recording, one per rank in a merged
  // file), or nullptr.
  const GpuMetricDevice* device(int deviceId, uint32_t hw = 0) const;
};

// Reads DB's GPU metrics; a file without GPU_METRICS gives none. Throws TraceError for a table it cannot query.
GpuMetrics readGpuMetrics(const Database& db);
// TRACE's GPU metrics, read on first use and kept with the trace; a damaged table gives none, with the reason in
// unreadable.
const GpuMetrics& gpuMetrics(const Trace& trace);

// The samples of one GPU that describe the stretch [start, end]: those whose interval [timestamp, timestamp +
// period) lies inside it. A GPU_METRICS timestamp is its interval's start, as nsys writes it (on an H200 nsys's
// first sample with SMs Active at 60% was stamped 80 us before the first kernel, over a 200 us interval).
SeriesStats samplesInside(const GpuMetricDevice& device, const MetricSeries& series, TimeInterval interval);

}  // namespace gpuscope
