#include "core/analysis/verdict/verdict_format.h"

#include <cmath>

#include "core/samples/samples_report.h"

namespace gpuscope {
namespace {

// Shares to 4 decimals: enough to read a percentage with two, and stable in golden comparisons.
double rounded(double share) { return std::round(share * 1e4) / 1e4; }

nlohmann::ordered_json optionalJson(std::optional<double> value) {
  return value ? nlohmann::ordered_json(std::round(*value * 100) / 100) : nlohmann::ordered_json(nullptr);
}

// The counters' means in percent of peak (null where not recorded), and the source every figure came from.
nlohmann::ordered_json countersJson(const CounterEvidence& c) {
  nlohmann::ordered_json json;
  json["source"] = c.source();
  json["device"] = c.deviceId;
  json["frequency_hz"] = std::round(c.frequencyHz);
  json["samples"] = c.samples;
  json["sms_active_pct"] = optionalJson(c.smsActive);
  json["sm_issue_pct"] = optionalJson(c.smIssue);
  json["tensor_active_pct"] = optionalJson(c.tensorActive);
  json["dram_read_pct"] = optionalJson(c.dramRead);
  json["dram_write_pct"] = optionalJson(c.dramWrite);
  json["dram_throughput_pct"] = optionalJson(c.dramThroughput());
  json["compute_throughput_pct"] = optionalJson(c.computeThroughput());
  json["memory_bound"] = c.memoryBound();
  json["tensor_cores_used"] = c.tensorActive ? nlohmann::ordered_json(tensorCoresUsed(c)) : nullptr;
  return json;
}

nlohmann::ordered_json memoryPeaksJson(const std::vector<MemoryPeak>& peaks) {
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const MemoryPeak& peak : peaks)
    json.push_back({{"device", peak.deviceId},
                    {"peak_bytes", peak.peakBytes},
                    {"peak_ns", peak.peakTime},
                    {"total_bytes", peak.totalBytes},
                    {"peak_share", rounded(peak.share())},
                    {"source", "CUDA memory usage events"}});
  return json;
}

nlohmann::ordered_json evidenceJson(const VerdictEvidence& e) {
  nlohmann::ordered_json json;
  json["window_start_ns"] = e.windowStart;
  json["window_end_ns"] = e.windowEnd;
  json["wall_ns"] = e.wallNs;
  json["gpu_busy_ns"] = e.gpuBusyNs;
  json["gpu_busy_share"] = rounded(e.share(e.gpuBusyNs));
  json["gpu_busy_split"] = {{"kernels_ns", e.kernelBusyNs},
                            {"kernels_share", rounded(e.share(e.kernelBusyNs))},
                            {"copies_ns", e.copyBusyNs},
                            {"copies_share", rounded(e.share(e.copyBusyNs))},
                            {"memsets_ns", e.memsetBusyNs},
                            {"memsets_share", rounded(e.share(e.memsetBusyNs))},
                            {"collectives_alone_ns", e.collectiveOnlyNs},
                            {"collectives_alone_share", rounded(e.share(e.collectiveOnlyNs))}};
  json["host_thread"] = nullptr;
  if (!e.hostThread.empty()) json["host_thread"] = {{"label", e.hostThread}, {"pid", e.pid}, {"tid", e.tid}};
  json["gpu_idle_after_sync_ns"] = e.idleSyncNs;
  json["gpu_idle_after_sync_share"] = rounded(e.share(e.idleSyncNs));
  json["gpu_idle_host_in_cuda_api_ns"] = e.idleApiNs;
  json["gpu_idle_host_in_cuda_api_share"] = rounded(e.share(e.idleApiNs));
  json["gpu_idle_host_outside_cuda_ns"] = e.idleCpuNs;
  json["gpu_idle_host_outside_cuda_share"] = rounded(e.share(e.idleCpuNs));
  json["gpu_idle_host_dispatching_ns"] = e.idleDispatchNs;
  json["gpu_idle_host_dispatching_share"] = rounded(e.share(e.idleDispatchNs));
  json["host_cuda_api_ns"] = e.hostApiNs;
  json["host_sync_ns"] = e.hostSyncNs;
  json["host_blocking_copy_ns"] = e.hostCopyNs;
  json["host_blocking_copy_share"] = rounded(e.share(e.hostCopyNs));
  json["host_samples_while_gpu_idle"] = e.idleHost.samples;
  json["host_idle_pool_samples_while_gpu_idle"] = e.idleHost.idlePoolSamples;
  json["top_functions"] = nlohmann::ordered_json::array();
  for (const HostFunction& function : e.idleHost.top) {
    json["top_functions"].push_back(functionShareJson(function, rounded));
  }
  json["kernels"] = e.kernels;
  json["kernel_ns"] = e.kernelNs;
  if (e.memoryBoundKernelNs) {
    json["memory_bound_kernel_ns"] = *e.memoryBoundKernelNs;
    json["memory_bound_kernel_share"] = rounded(e.memoryBoundShare());
  }
  json["gpu_metrics"] = nullptr;
  if (e.counters) json["gpu_metrics"] = countersJson(*e.counters);
  json["thresholds"] = {{"gpu_bound_share", kGpuBoundShare},
                        {"memory_bound_share", kMemoryBoundShare},
                        {"transfer_share_of_busy", kTransferShare},
                        {"communication_share_of_busy", kCommunicationShare},
                        {"host_blocking_copy_share", kHostCopyBoundShare},
                        {"dispatch_gap_ns", kDispatchGapNs},
                        {"tensor_cores_used_percent", kTensorCoresUsedPercent}};
  return json;
}

nlohmann::ordered_json startupJson(const StartupSummary& startup) {
  nlohmann::ordered_json json;
  json["start_ns"] = startup.span.start;
  json["end_ns"] = startup.span.end;
  json["wall_ns"] = startup.span.length();
  json["gpu_busy_ns"] = startup.gpuBusyNs;
  json["host_cuda_ns"] = startup.hostCudaNs;
  json["host_outside_cuda_ns"] = startup.hostOutsideNs;
  nlohmann::ordered_json calls = nlohmann::ordered_json::array();
  for (const auto& [name, time] : startup.longestCalls) calls.push_back({{"name", name}, {"ns", time}});
  json["longest_calls"] = calls;
  return json;
}

nlohmann::ordered_json judgedJson(const JudgedWindow& judged) {
  nlohmann::ordered_json json;
  json["source"] = judgedWindowSourceName(judged.source);
  json["reason"] = judged.reason;
  json["start_ns"] = judged.window.start;
  json["end_ns"] = judged.window.end;
  json["shutdown_ns"] = judged.shutdown.length();
  return json;
}

}  // namespace

nlohmann::ordered_json verdictJson(const Verdict& verdict) {
  nlohmann::ordered_json json;
  json["class"] = bottleneckClassName(verdict.kind);
  json["sentence"] = verdictSentence(verdict);
  json["evidence"] = evidenceJson(verdict.evidence);
  if (verdict.judged) {
    json["judged_window"] = judgedJson(*verdict.judged);
    json["startup"] = startupJson(verdict.startup);
    json["startup_sentence"] = startupSentence(verdict.startup, verdict.evidence.hostThread);
    json["memory_peaks"] = memoryPeaksJson(verdict.memoryPeaks);
  }
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

nlohmann::ordered_json rankVerdictJson(const RankVerdict& verdict) {
  nlohmann::ordered_json json;
  json["label"] = verdict.label;
  json["rank"] = verdict.rank ? nlohmann::ordered_json(*verdict.rank) : nlohmann::ordered_json(nullptr);
  json["host"] = verdict.hostName;
  json["class"] = bottleneckClassName(verdict.verdict.kind);
  json["sentence"] = verdictSentence(verdict.verdict);
  json["evidence"] = evidenceJson(verdict.verdict.evidence);
  if (verdict.verdict.judged) json["judged_window"] = judgedJson(*verdict.verdict.judged);
  return json;
}

}  // namespace gpuscope

namespace gpuscope {

nlohmann::ordered_json windowFiguresJson(const WindowFigures& figures) {
  nlohmann::ordered_json json;
  json["window_start_ns"] = figures.window.start;
  json["window_end_ns"] = figures.window.end;
  json["verdict_gpu_busy_ns"] = figures.gpuBusyNs;
  json["hta_compute_us"] = figures.htaComputeUs;
  json["hta_span_us"] = figures.htaSpanUs;
  json["stats_kernel_ns"] = figures.statsKernelNs;
  json["stats_kernels"] = figures.statsKernels;
  json["sentence"] = windowFiguresSentence(figures);
  return json;
}

}  // namespace gpuscope
