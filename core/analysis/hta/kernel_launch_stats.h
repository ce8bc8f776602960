#pragma once
// HTA's CUDA kernel launch statistics: for each operation launched by cudaLaunchKernel,
// cudaLaunchKernelExC and (optionally) cudaMemcpyAsync or cudaMemsetAsync, how long the launch call took
// on the CPU, how long the operation ran on the GPU, and how long after the call ended it started,
// in microseconds on HTA's grid; and HTA's three groups of launches worth a look.
#include <cstdint>
#include <vector>

#include "core/analysis/hta/hta_trace.h"

namespace gpuscope {

struct KernelLaunch {
  const HtaGpuOp* op = nullptr;  // with its launch call
  int64_t cpuUs = 0;             // the call's duration
  int64_t gpuUs = 0;             // the operation's duration
  int64_t delayUs = 0;           // operation start - call end, 0 when negative
};

// The launches of RANK, in the order of their calls' start (then correlation id).
std::vector<KernelLaunch> kernelLaunches(const HtaRank& rank, bool includeMemoryEvents);

struct KernelLaunchCutoffs {
  int64_t runtimeUs = 50;       // HTA's runtime_cutoff
  int64_t launchDelayUs = 100;  // HTA's launch_delay_cutoff
};

// HTA's short kernel: the call took at most the runtime cutoff and the GPU ran for less than the call took.
bool isShortKernel(const KernelLaunch& launch, const KernelLaunchCutoffs& cutoffs);
// A runtime outlier: the call took longer than the runtime cutoff.
bool isRuntimeOutlier(const KernelLaunch& launch, const KernelLaunchCutoffs& cutoffs);
// A launch delay outlier: the operation started more than the launch delay cutoff after the call ended.
bool isLaunchDelayOutlier(const KernelLaunch& launch, const KernelLaunchCutoffs& cutoffs);

}  // namespace gpuscope
