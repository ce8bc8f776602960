#pragma once
// PM samples -> GPU_METRICS rows, as nsys writes them: one row per metric per sample, every row of a
// sample stamped with the end of its interval, values as integers (percent, Hz, warps), typeId laid out as
// nsys's global id with the device in its low byte. Pure: the daemon and the tests feed it decoded samples.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "collector/gpu_metrics/metric_sets.h"

namespace gpuscope::gpu_metrics {

struct GpuMetricRow {
  int64_t timestamp = 0;  // trace time, the sample's end
  int64_t typeId = 0;
  int64_t metricId = 0;
  int64_t value = 0;
};

struct GpuMetricNameRow {
  int64_t typeId = 0;
  int64_t sourceId = 0;
  int64_t metricId = 0;
  std::string_view name;
};

// nsys's typeId of device DEVICEID's metrics: 0x0001000100000000 | device (core's deviceOfType reads it back).
constexpr int64_t gpuMetricTypeId(uint32_t deviceId) {
  return static_cast<int64_t>(0x0001000100000000ULL | (deviceId & 0xFF));
}

// A value as stored: rounded to the nearest integer; NaN and negatives (CUPTI's noise on idle units) are 0.
int64_t storedValue(double value);

// The rows of one sample of SET on DEVICEID whose interval begins at START (trace time): nsys's GPU_METRICS
// timestamp is the interval's start (on an H200 its first sample with SMs Active 60% came 80 us before the first
// kernel, over a 200 us interval). VALUES in the set's order. Values beyond the set's counters are ignored,
// missing ones give no row.
void appendSampleRows(const MetricSet& set, uint32_t deviceId, int64_t start, std::span<const double> values,
                      std::vector<GpuMetricRow>& rows);

// TARGET_INFO_GPU_METRICS of SET on DEVICEID: sourceId equal to typeId, as nsys writes for device 0.
std::vector<GpuMetricNameRow> metricNameRows(const MetricSet& set, uint32_t deviceId);

// A PM sample's timestamp (CUPTI's own clock, in ns) on the session clock, given CUPTI's clock and the session
// clock read together (cuptiGetTimestamp between two session clock reads). It is not CLOCK_REALTIME: on an H200
// the samples read about 540 s where CLOCK_REALTIME was 1.8e18 ns.
constexpr int64_t sessionTimeOfGpuTime(uint64_t gpuNs, int64_t gpuNowNs, int64_t sessionNowNs) {
  return static_cast<int64_t>(gpuNs) - gpuNowNs + sessionNowNs;
}

}  // namespace gpuscope::gpu_metrics
