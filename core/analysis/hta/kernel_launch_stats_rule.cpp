// kernel_launch_stats: HTA's get_cuda_kernel_launch_stats(), one row per launch of one rank, with
// HTA's short-kernel, runtime-outlier and launch-delay-outlier groups counted in the explanation.
#include <algorithm>
#include <cstdio>

#include "core/analysis/hta/hta_rule_support.h"
#include "core/analysis/hta/hta_rules.h"
#include "core/analysis/hta/kernel_launch_stats.h"
#include "core/error.h"
#include "core/model/global_id.h"

namespace gpuscope {
namespace {

// The largest outliers of each kind become the finding's ranges, for the viewer to jump to.
constexpr size_t kOutlierRanges = 50;

std::string share(size_t part, size_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

std::string summary(int64_t rank, const std::vector<KernelLaunch>& launches, const KernelLaunchCutoffs& cutoffs) {
  size_t shortKernels = 0, runtimeOutliers = 0, delayOutliers = 0;
  for (const KernelLaunch& launch : launches) {
    shortKernels += isShortKernel(launch, cutoffs);
    runtimeOutliers += isRuntimeOutlier(launch, cutoffs);
    delayOutliers += isLaunchDelayOutlier(launch, cutoffs);
  }
  std::string runtime = std::to_string(cutoffs.runtimeUs), delay = std::to_string(cutoffs.launchDelayUs);
  return "Rank " + std::to_string(rank) + ": " + std::to_string(launches.size()) +
         " launches. Short kernels (the GPU ran " + "for less time than the launch call took, a call of at most " +
         runtime + " us): " + std::to_string(shortKernels) + " (" + share(shortKernels, launches.size()) +
         "). Runtime outliers (a launch call longer than " + runtime + " us): " + std::to_string(runtimeOutliers) +
         " (" + share(runtimeOutliers, launches.size()) + "). Launch delay outliers (the GPU started more than " +
         delay + " us after the call returned): " + std::to_string(delayOutliers) + " (" +
         share(delayOutliers, launches.size()) + ").";
}

FindingRange callRange(const HtaRank& rank, const HtaLaunchCall& call) {
  FindingRange range;
  range.start = call.startNs;
  range.end = call.endNs;
  range.pid = global_id::pid(rank.globalPid);
  range.tid = call.tid;
  return range;
}

void addOutlierRanges(const HtaRank& rank, std::vector<KernelLaunch> launches, const KernelLaunchCutoffs& cutoffs,
                      Finding& finding) {
  std::vector<KernelLaunch> slow, delayed;
  for (const KernelLaunch& launch : launches) {
    if (isRuntimeOutlier(launch, cutoffs)) slow.push_back(launch);
    if (isLaunchDelayOutlier(launch, cutoffs)) delayed.push_back(launch);
  }
  auto keepLargest = [](std::vector<KernelLaunch>& list, int64_t KernelLaunch::*field) {
    std::stable_sort(list.begin(), list.end(),
                     [field](const KernelLaunch& a, const KernelLaunch& b) { return a.*field > b.*field; });
    if (list.size() > kOutlierRanges) list.resize(kOutlierRanges);
  };
  keepLargest(slow, &KernelLaunch::cpuUs);
  keepLargest(delayed, &KernelLaunch::delayUs);
  for (const KernelLaunch& launch : slow) finding.ranges.push_back(callRange(rank, *launch.op->launch));
  for (const KernelLaunch& launch : delayed) {
    const HtaGpuOp& op = *launch.op;
    finding.ranges.push_back(
        htaGpuRange(op.launch->endNs, op.startNs, rank.globalPid, op.deviceId, op.contextId, op.streamId));
  }
}

class KernelLaunchStatsRule : public HtaRule {
 public:
  std::string_view id() const override { return "kernel_launch_stats"; }
  std::string_view title() const override { return "CUDA kernel launch statistics (HTA)"; }
  std::string_view description() const override {
    return "Holistic Trace Analysis's CUDA kernel launch statistics: for every operation launched by "
           "cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync or cudaMemsetAsync on one rank, the launch "
           "call's duration on the CPU, the operation's duration on the GPU and the launch delay (from the end "
           "of the call to the start on the GPU), in microseconds, with HTA 0.5.0's short kernels, runtime "
           "outliers and launch delay outliers counted.";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = htaFinding(*this);
    finding.evidence.columns = {
        {"correlation", 0}, htaColumn("cpu_duration"), htaColumn("gpu_duration"), htaColumn("launch_delay")};
    KernelLaunchCutoffs cutoffs{options.integer("runtime_cutoff"), options.integer("launch_delay_cutoff")};
    bool memory = htaFlag(options, "include_memory_events");
    std::vector<HtaRank> ranks = loadHtaRanks(db, analysisWindow(db, options));
    auto rank = ranks.begin();
    if (options.given("rank")) {
      int64_t wanted = options.integer("rank");
      rank = std::find_if(ranks.begin(), ranks.end(), [wanted](const HtaRank& r) { return r.rank == wanted; });
    }
    if (rank == ranks.end()) return finding;
    std::vector<KernelLaunch> launches = kernelLaunches(*rank, memory);
    for (const KernelLaunch& launch : launches) {
      finding.evidence.rows.push_back({static_cast<int64_t>(launch.op->correlationId),
                                       static_cast<double>(launch.cpuUs), static_cast<double>(launch.gpuUs),
                                       static_cast<double>(launch.delayUs)});
    }
    if (!finding.found()) return finding;
    finding.explanation = summary(rank->rank, launches, cutoffs);
    finding.suggestion =
        "Many short kernels mean the CPU spends longer launching work than the GPU spends running it: fuse "
        "kernels, use CUDA graphs or torch.compile. Runtime outliers are launch calls that blocked; launch delay "
        "outliers are operations queued behind other work on the GPU.";
    addOutlierRanges(*rank, std::move(launches), cutoffs, finding);
    return finding;
  }

 protected:
  std::vector<RuleOption> ownOptions() const override {
    return {{"runtime_cutoff", "50", "Launch calls longer than this (us) are runtime outliers"},
            {"launch_delay_cutoff", "100", "Launch delays longer than this (us) are outliers"},
            {"include_memory_events", "true", "Count cudaMemcpyAsync and cudaMemsetAsync launches too"},
            {"rank", "", "The rank to analyze (default: the first)"}};
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeKernelLaunchStatsRule() { return std::make_unique<KernelLaunchStatsRule>(); }

}  // namespace gpuscope
