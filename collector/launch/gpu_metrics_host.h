#pragma once
// The process that samples the GPUs' counters for `record --gpu-metrics` (collector/cuda/gpu_metrics_host_main.cpp),
// beside the program rather than inside it, as nsys samples them from its daemon: sampling then starts before the
// program's first kernel, however long CUPTI takes to set it up, and stops cleanly however the program ends.
#include <sys/types.h>

#include <string>
#include <vector>

namespace gpuscope {

class GpuMetricsHost {
 public:
  // Starts PROGRAM with ENVIRONMENT (the recording's, which this adapts: CUDA tracing only, the metrics settings,
  // no rank) in its own process group, and waits until it says its GPUs are sampled. Where it cannot start or
  // does not say so in time, one sentence on stderr, and the recording goes on without GPU metrics.
  GpuMetricsHost(const std::string& program, const std::vector<std::string>& environment, int64_t frequencyHz,
                 const std::string& set);
  // Stops sampling: SIGTERM, so the host writes its last samples, then SIGKILL if it has not ended in time.
  void stop();
  ~GpuMetricsHost() { stop(); }
  GpuMetricsHost(const GpuMetricsHost&) = delete;
  GpuMetricsHost& operator=(const GpuMetricsHost&) = delete;

 private:
  pid_t pid_ = -1;
};

// ENVIRONMENT as the metrics host gets it: GPUSCOPE_TRACE=cuda (it traces nothing of its own; its injection only
// samples), GPUSCOPE_GPU_METRICS_HOST=1 with the frequency and set, without NVTX injection and without the rank
// variables (it is no rank of the job). Pure, for the tests.
std::vector<std::string> gpuMetricsHostEnvironment(const std::vector<std::string>& environment, int64_t frequencyHz,
                                                   const std::string& set);

}  // namespace gpuscope
