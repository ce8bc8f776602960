// The metrics host's environment: the recording's, tracing CUDA only, with the metrics settings and no rank.
#include <gtest/gtest.h>

#include <algorithm>

#include "collector/launch/gpu_metrics_host.h"

namespace gpuscope {
namespace {

bool has(const std::vector<std::string>& entries, const std::string& entry) {
  return std::find(entries.begin(), entries.end(), entry) != entries.end();
}

bool setsAny(const std::vector<std::string>& entries, const std::string& prefix) {
  return std::any_of(entries.begin(), entries.end(), [&](const std::string& e) { return e.rfind(prefix, 0) == 0; });
}

TEST(GpuMetricsHostEnvironment, TracesOnlyCudaWithTheMetricsSettingsAndNoRank) {
  std::vector<std::string> program = {"PATH=/usr/bin",
                                      "GPUSCOPE_TRACE=cuda,nvtx,osrt",
                                      "GPUSCOPE_SESSION_DIR=/dev/shm/s",
                                      "CUDA_INJECTION64_PATH=/lib/libgpuscope_cuda.so",
                                      "NVTX_INJECTION64_PATH=/lib/libgpuscope_inject.so",
                                      "GPUSCOPE_CUDA_MEMORY_USAGE=1",
                                      "RANK=3",
                                      "LOCAL_RANK=1",
                                      "OMPI_COMM_WORLD_SIZE=8"};
  std::vector<std::string> host = gpuMetricsHostEnvironment(program, 20000, "gh100");
  EXPECT_TRUE(has(host, "PATH=/usr/bin"));
  EXPECT_TRUE(has(host, "GPUSCOPE_SESSION_DIR=/dev/shm/s"));
  EXPECT_TRUE(has(host, "CUDA_INJECTION64_PATH=/lib/libgpuscope_cuda.so"));
  EXPECT_TRUE(has(host, "GPUSCOPE_TRACE=cuda"));
  EXPECT_FALSE(has(host, "GPUSCOPE_TRACE=cuda,nvtx,osrt"));
  EXPECT_TRUE(has(host, "GPUSCOPE_GPU_METRICS_HOST=1"));
  EXPECT_TRUE(has(host, "GPUSCOPE_GPU_METRICS_HZ=20000"));
  EXPECT_TRUE(has(host, "GPUSCOPE_GPU_METRICS_SET=gh100"));
  EXPECT_FALSE(setsAny(host, "NVTX_INJECTION64_PATH="));
  EXPECT_FALSE(setsAny(host, "GPUSCOPE_CUDA_MEMORY_USAGE=")) << "the program's allocations are the program's";
  EXPECT_FALSE(setsAny(host, "RANK="));
  EXPECT_FALSE(setsAny(host, "LOCAL_RANK="));
  EXPECT_FALSE(setsAny(host, "OMPI_COMM_WORLD_SIZE="));
}

}  // namespace
}  // namespace gpuscope
