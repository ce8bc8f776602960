#pragma once
// What the GPU's own counters said over a judged window: its sampled GPU metrics (nsys's GPU_METRICS, as
// --gpu-metrics-devices and gpuscope record --gpu-metrics write them) averaged over the window. With them the
// verdict tells memory-bound from compute-bound work without an ncu import, and says whether tensor cores ran.
//
// DRAM throughput is DRAM Read + DRAM Write Bandwidth (both percent of the one peak bandwidth they share);
// compute throughput is the larger of SM Issue and Tensor Active (a tensor-core GEMM issues few instructions
// while its tensor pipes are full). A window is memory bound on the counters when DRAM throughput exceeds
// compute throughput: the kernels moved data through DRAM harder than they issued math, which idle time
// cannot change since it lowers both alike.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/gpu_metrics.h"
#include "core/model/time_interval.h"

namespace gpuscope {

// Tensor Active at or above this percent over a window: tensor cores ran.
inline constexpr double kTensorCoresUsedPercent = 5.0;

struct CounterEvidence {
  int deviceId = 0;
  double frequencyHz = 0;
  size_t samples = 0;  // per metric, inside the windows
  // Means over the windows, percent of peak; absent where the GPU did not record the metric.
  std::optional<double> smsActive;
  std::optional<double> smIssue;
  std::optional<double> tensorActive;
  std::optional<double> dramRead;
  std::optional<double> dramWrite;

  double dramThroughput() const { return dramRead.value_or(0) + dramWrite.value_or(0); }
  double computeThroughput() const;
  // Both sides were recorded and DRAM throughput exceeds compute throughput.
  bool memoryBound() const;
  // "GPU metrics sampled at 1 kHz, 2,341 samples": the source every figure names.
  std::string source() const;
};

// The counters of the GPU that worked most in WINDOWS (the highest SMs Active), over the samples whose interval
// lies inside them; none without GPU metrics or with fewer than kLeastSamplesForMeans samples.
std::optional<CounterEvidence> counterEvidence(const GpuMetrics& metrics, const std::vector<TimeInterval>& windows);

// "Its counters show more DRAM traffic than math: DRAM throughput 28.1% of peak (read 16.0%, write 12.1%), SM Issue
// 8.6%, Tensor Active 0.0%, SMs Active 97.0%; tensor cores stayed idle (GPU metrics sampled at 1 kHz, 7 samples)."
std::string counterSentence(const CounterEvidence& counters);
// Tensor Active reached kTensorCoresUsedPercent over the windows.
bool tensorCoresUsed(const CounterEvidence& counters);

}  // namespace gpuscope
