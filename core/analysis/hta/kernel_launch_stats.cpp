#include "core/analysis/hta/kernel_launch_stats.h"

#include <algorithm>

#include "core/model/time_math.h"

namespace gpuscope {

std::vector<KernelLaunch> kernelLaunches(const HtaRank& rank, bool includeMemoryEvents) {
  std::vector<KernelLaunch> launches;
  for (const HtaGpuOp& op : rank.ops) {
    if (!op.launch) continue;
    bool counted = op.launch->kind == HtaLaunchKind::KernelLaunch ||
                   (includeMemoryEvents && op.launch->kind == HtaLaunchKind::MemoryAsync);
    if (!counted) continue;
    KernelLaunch launch;
    launch.op = &op;
    launch.cpuUs = saturatingSub(op.launch->endUs, op.launch->startUs);
    launch.gpuUs = saturatingSub(op.endUs, op.startUs);
    launch.delayUs = std::max<int64_t>(0, saturatingSub(op.startUs, op.launch->endUs));
    launches.push_back(launch);
  }
  std::sort(launches.begin(), launches.end(), [](const KernelLaunch& a, const KernelLaunch& b) {
    if (a.op->launch->startNs != b.op->launch->startNs) return a.op->launch->startNs < b.op->launch->startNs;
    return a.op->correlationId < b.op->correlationId;
  });
  return launches;
}

bool isShortKernel(const KernelLaunch& launch, const KernelLaunchCutoffs& cutoffs) {
  return launch.cpuUs <= cutoffs.runtimeUs && launch.gpuUs < launch.cpuUs;
}

bool isRuntimeOutlier(const KernelLaunch& launch, const KernelLaunchCutoffs& cutoffs) {
  return launch.cpuUs > cutoffs.runtimeUs;
}

bool isLaunchDelayOutlier(const KernelLaunch& launch, const KernelLaunchCutoffs& cutoffs) {
  return launch.delayUs > cutoffs.launchDelayUs;
}

}  // namespace gpuscope
