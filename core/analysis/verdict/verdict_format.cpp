#include "core/analysis/verdict/verdict_format.h"

#include <cmath>

namespace gpuscope {
namespace {

// Shares to 4 decimals: enough to read a percentage with two, and stable in golden comparisons.
double rounded(double share) { return std::round(share * 1e4) / 1e4; }

nlohmann::ordered_json evidenceJson(const VerdictEvidence& e) {
  nlohmann::ordered_json json;
  json["window_start_ns"] = e.windowStart;
  json["window_end_ns"] = e.windowEnd;
  json["wall_ns"] = e.wallNs;
  json["gpu_busy_ns"] = e.gpuBusyNs;
  json["gpu_busy_share"] = rounded(e.share(e.gpuBusyNs));
  json["host_thread"] = nullptr;
  if (!e.hostThread.empty()) json["host_thread"] = {{"label", e.hostThread}, {"pid", e.pid}, {"tid", e.tid}};
  json["gpu_idle_after_sync_ns"] = e.idleSyncNs;
  json["gpu_idle_after_sync_share"] = rounded(e.share(e.idleSyncNs));
  json["gpu_idle_host_in_cuda_api_ns"] = e.idleApiNs;
  json["gpu_idle_host_in_cuda_api_share"] = rounded(e.share(e.idleApiNs));
  json["gpu_idle_host_outside_cuda_ns"] = e.idleCpuNs;
  json["gpu_idle_host_outside_cuda_share"] = rounded(e.share(e.idleCpuNs));
  json["host_cuda_api_ns"] = e.hostApiNs;
  json["host_sync_ns"] = e.hostSyncNs;
  json["kernels"] = e.kernels;
  json["kernel_ns"] = e.kernelNs;
  if (e.memoryBoundKernelNs) {
    json["memory_bound_kernel_ns"] = *e.memoryBoundKernelNs;
    json["memory_bound_kernel_share"] = rounded(e.memoryBoundShare());
  }
  json["thresholds"] = {{"gpu_bound_share", kGpuBoundShare}, {"memory_bound_share", kMemoryBoundShare}};
  return json;
}

}  // namespace

nlohmann::ordered_json verdictJson(const Verdict& verdict) {
  nlohmann::ordered_json json;
  json["class"] = bottleneckClassName(verdict.kind);
  json["sentence"] = verdictSentence(verdict);
  json["evidence"] = evidenceJson(verdict.evidence);
  return json;
}

nlohmann::ordered_json rangeVerdictJson(const RangeVerdict& verdict) {
  nlohmann::ordered_json json;
  json["range"] = verdict.name;
  json["instances"] = verdict.instances;
  json["class"] = bottleneckClassName(verdict.verdict.kind);
  json["sentence"] = verdictSentence(verdict.verdict);
  json["evidence"] = evidenceJson(verdict.verdict.evidence);
  return json;
}

}  // namespace gpuscope
