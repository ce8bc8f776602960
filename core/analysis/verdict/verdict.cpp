#include "core/analysis/verdict/verdict.h"

#include <algorithm>
#include <map>

#include "core/analysis/verdict/kernel_limits.h"
#include "core/schema/trace_schema.h"
#include "core/stats/nvtx_ranges.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// A damaged GPU_METRICS table judges the run without counters rather than stopping the analysis.
GpuMetrics readGpuMetricsOrNone(const Database& db) {
  try {
    return readGpuMetrics(db);
  } catch (const std::exception&) {
    return {};
  }
}

std::vector<int64_t> memoryBoundNameIds(const Database& db, const std::vector<KernelLimit>& limits) {
  std::vector<int64_t> ids;
  if (!db.hasTable(table::kStringIds)) return ids;
  auto statement = db.prepare("SELECT id FROM StringIds WHERE value = ?1");
  for (const KernelLimit& limit : limits) {
    if (!limit.memoryBound) continue;
    statement.reset();
    statement.bind(1, limit.point.label);
    while (statement.step()) ids.push_back(statement.int64(0));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Covered time of SET inside the parts of WINDOW that OTHER leaves free.
TimeNs lengthOutside(const IntervalSet& set, const IntervalSet& other, TimeInterval window) {
  TimeNs length = 0;
  for (const TimeInterval& free : other.gapsWithin(window.start, window.end))
    length += set.lengthWithin(free.start, free.end);
  return length;
}

void addGpuBusy(const RunActivity& run, TimeInterval window, VerdictEvidence& evidence) {
  evidence.gpuBusyNs += run.gpuBusy.lengthWithin(window.start, window.end);
  evidence.kernelBusyNs += run.kernelBusy.lengthWithin(window.start, window.end);
  evidence.copyBusyNs += lengthOutside(run.copyBusy, run.kernelBusy, window);
  evidence.memsetBusyNs += lengthOutside(run.memsetBusy, run.kernelOrCopyBusy, window);
  evidence.collectiveOnlyNs += lengthOutside(run.collectiveBusy, run.computeBusy, window);
}

void addWindow(const VerdictInputs& inputs, TimeInterval window, VerdictEvidence& evidence) {
  const RunActivity& run = inputs.activity;
  evidence.wallNs += window.length();
  addGpuBusy(run, window, evidence);
  if (const HostThread* host = run.drivingThread()) {
    evidence.hostApiNs += host->apiCalls.lengthWithin(window.start, window.end);
    evidence.hostSyncNs += host->syncCalls.lengthWithin(window.start, window.end);
    evidence.hostCopyNs += host->copyCalls.lengthWithin(window.start, window.end);
    for (const TimeInterval& idle : run.gpuBusy.gapsWithin(window.start, window.end)) {
      TimeNs api = host->apiCalls.lengthWithin(idle.start, idle.end);
      TimeNs sync = host->syncCalls.lengthWithin(idle.start, idle.end);
      evidence.idleApiNs += api;
      evidence.idleSyncNs += sync;
      evidence.idleCpuNs += idle.length() - api - sync;
      evidence.idleDispatchNs += host->dispatchGaps.lengthWithin(idle.start, idle.end);
    }
  }
  auto first = std::lower_bound(run.kernels.begin(), run.kernels.end(), window.start,
                                [](const KernelSpan& kernel, TimeNs time) { return kernel.start < time; });
  for (auto kernel = first; kernel != run.kernels.end() && kernel->start < window.end; ++kernel) {
    TimeNs time = std::min(kernel->end, window.end) - kernel->start;
    ++evidence.kernels;
    evidence.kernelNs += time;
    if (std::binary_search(inputs.memoryBoundNameIds.begin(), inputs.memoryBoundNameIds.end(), kernel->nameId))
      *evidence.memoryBoundKernelNs += time;
  }
}

// What the GPU's busy time was, for every sentence: "busy 97.7% of 271.798 ms (kernels 1.0%, ...)".
// Collectives are named only where the window ran some.
std::string busyClause(const VerdictEvidence& e) {
  std::string collectives =
      e.collectiveOnlyNs > 0 ? " including collectives alone " + percentText(e.share(e.collectiveOnlyNs)) : "";
  return "the GPU was busy " + percentText(e.share(e.gpuBusyNs)) + " of " + formatDuration(e.wallNs) + " (kernels " +
         percentText(e.share(e.kernelBusyNs)) + collectives + ", copies " + percentText(e.share(e.copyBusyNs)) +
         ", memsets " + percentText(e.share(e.memsetBusyNs)) + ")";
}

std::string transferSentence(const VerdictEvidence& e) {
  std::string text = "Transfer bound: " + busyClause(e) + ", copies and memsets " + percentText(e.transferShare()) +
                     " of the busy time";
  if (!e.hostThread.empty()) {
    text += ", and the host thread " + e.hostThread + " was blocked in copies and memsets " +
            percentText(e.share(e.hostCopyNs)) + " of the window";
  }
  return text + " (the blocking_copies finding lists them).";
}

// Where the GPU's idle time went, for every sentence.
std::string idleClause(const VerdictEvidence& e) {
  if (e.hostThread.empty()) return "no host thread made CUDA calls";
  std::string dispatch = e.idleDispatchNs > 0 ? " (" + percentText(e.share(e.idleDispatchNs)) +
                                                    " of it between calls under 20 us apart, dispatching launches)"
                                              : "";
  return "idle " + percentText(e.share(e.idleCpuNs)) + " while the host thread " + e.hostThread +
         " ran outside CUDA calls" + dispatch + ", " + percentText(e.share(e.idleApiNs)) +
         " while it was in CUDA API calls and " + percentText(e.share(e.idleSyncNs)) +
         " while it waited in synchronizing calls";
}

}  // namespace

std::string_view bottleneckClassName(BottleneckClass kind) {
  switch (kind) {
    case BottleneckClass::GpuCompute:
      return "gpu_compute";
    case BottleneckClass::Memory:
      return "memory";
    case BottleneckClass::Transfer:
      return "transfer";
    case BottleneckClass::Communication:
      return "communication";
    case BottleneckClass::Synchronization:
      return "synchronization";
    case BottleneckClass::CudaApi:
      return "cuda_api";
    case BottleneckClass::Cpu:
      return "cpu";
    case BottleneckClass::None:
      return "none";
  }
  return "none";
}

double VerdictEvidence::share(TimeNs part) const {
  return wallNs > 0 ? static_cast<double>(part) / static_cast<double>(wallNs) : 0.0;
}

double VerdictEvidence::transferShare() const {
  if (gpuBusyNs <= 0) return 0.0;
  return static_cast<double>(copyBusyNs + memsetBusyNs) / static_cast<double>(gpuBusyNs);
}

double VerdictEvidence::communicationShare() const {
  if (gpuBusyNs <= 0) return 0.0;
  return static_cast<double>(collectiveOnlyNs) / static_cast<double>(gpuBusyNs);
}

double VerdictEvidence::memoryBoundShare() const {
  if (!memoryBoundKernelNs || kernelNs <= 0) return 0.0;
  return static_cast<double>(*memoryBoundKernelNs) / static_cast<double>(kernelNs);
}

BottleneckClass classify(const VerdictEvidence& e) {
  if (e.wallNs <= 0 || (e.gpuBusyNs == 0 && e.hostThread.empty())) return BottleneckClass::None;
  if (e.share(e.gpuBusyNs) >= kGpuBoundShare) {
    if (e.transferShare() >= kTransferShare) return BottleneckClass::Transfer;
    if (e.communicationShare() >= kCommunicationShare) return BottleneckClass::Communication;
    if (e.memoryBoundKernelNs)
      return e.memoryBoundShare() >= kMemoryBoundShare ? BottleneckClass::Memory : BottleneckClass::GpuCompute;
    return e.counters && e.counters->memoryBound() ? BottleneckClass::Memory : BottleneckClass::GpuCompute;
  }
  if (e.share(e.hostCopyNs) >= kHostCopyBoundShare) return BottleneckClass::Transfer;
  TimeNs launchOverhead = e.idleApiNs + e.idleDispatchNs;
  TimeNs hostWork = e.idleCpuNs - e.idleDispatchNs;
  TimeNs largest = std::max({e.idleSyncNs, launchOverhead, hostWork});
  if (e.idleSyncNs == largest) return BottleneckClass::Synchronization;
  if (launchOverhead == largest) return BottleneckClass::CudaApi;
  return BottleneckClass::Cpu;
}

VerdictInputs loadVerdictInputs(const Database& db) {
  VerdictInputs inputs;
  inputs.activity = loadRunActivity(db);
  auto limits = kernelLimits(db);
  inputs.hasMetrics = !limits.empty();
  inputs.memoryBoundNameIds = memoryBoundNameIds(db, limits);
  inputs.gpuMetrics = std::make_shared<const GpuMetrics>(readGpuMetricsOrNone(db));
  inputs.memoryPeaks = memoryPeaks(db);
  if (db.hasTable(table::kNvtx)) inputs.nvtx = loadNvtxRanges(db);
  return inputs;
}

Verdict windowVerdict(const VerdictInputs& inputs, const std::vector<TimeInterval>& windows) {
  Verdict verdict;
  VerdictEvidence& evidence = verdict.evidence;
  if (inputs.hasMetrics) evidence.memoryBoundKernelNs = 0;
  if (const HostThread* host = inputs.activity.drivingThread()) {
    evidence.hostThread = threadLabel(*host);
    evidence.pid = host->pid;
    evidence.tid = host->tid;
  }
  for (const TimeInterval& window : windows) {
    if (window.end <= window.start) continue;
    if (evidence.wallNs == 0) evidence.windowStart = window.start;
    evidence.windowStart = std::min(evidence.windowStart, window.start);
    evidence.windowEnd = std::max(evidence.windowEnd, window.end);
    addWindow(inputs, window, evidence);
  }
  if (inputs.gpuMetrics) evidence.counters = counterEvidence(*inputs.gpuMetrics, windows);
  verdict.kind = classify(evidence);
  return verdict;
}

namespace {

Verdict judgedVerdict(const Database& db, const VerdictInputs& inputs, JudgedWindow judged) {
  Verdict verdict = windowVerdict(inputs, {judged.window});
  if (verdict.kind == BottleneckClass::Cpu || verdict.kind == BottleneckClass::CudaApi)
    verdict.evidence.idleHost = idleHostSamples(db, inputs.activity, judged.window);
  verdict.startup = summarizeStartup(db, inputs.activity, judged.startup);
  verdict.memoryPeaks = inputs.memoryPeaks;
  verdict.judged = std::move(judged);
  return verdict;
}

}  // namespace

Verdict runVerdict(const Database& db, const VerdictInputs& inputs) {
  if (std::optional<JudgedWindow> triggered = triggeredWindow(db, inputs.activity))
    return judgedVerdict(db, inputs, std::move(*triggered));
  return judgedVerdict(db, inputs, steadyStateWindow(db, inputs.activity, inputs.nvtx));
}

Verdict runVerdictOver(const Database& db, const VerdictInputs& inputs, TimeInterval window, std::string reason) {
  return judgedVerdict(db, inputs, chosenWindow(inputs.activity, window, std::move(reason)));
}

std::vector<RangeVerdict> nvtxVerdicts(const Database& db, const VerdictInputs& inputs) {
  std::vector<RangeVerdict> verdicts;
  if (!db.hasTable(table::kNvtx)) return verdicts;
  struct Instances {
    TimeNs first = INT64_MAX;
    std::vector<TimeInterval> windows;
  };
  std::map<std::string, Instances> byName;
  for (const NvtxRange& range : loadNvtxRanges(db)) {
    Instances& instances = byName[range.name.starts_with(':') ? range.name.substr(1) : range.name];
    instances.first = std::min(instances.first, range.start);
    instances.windows.push_back({range.start, range.end});
  }
  for (const auto& [name, instances] : byName)
    verdicts.push_back({name, instances.windows.size(), windowVerdict(inputs, instances.windows)});
  std::stable_sort(verdicts.begin(), verdicts.end(), [&byName](const RangeVerdict& a, const RangeVerdict& b) {
    return byName.at(a.name).first < byName.at(b.name).first;
  });
  return verdicts;
}

namespace {

// What the host thread's samples name while the GPU idled; empty without samples.
std::string idleHostClause(const VerdictEvidence& e) {
  if (e.idleHost.samples == 0) return "";
  return " While the GPU idled, " + std::to_string(e.idleHost.samples) + " samples of the host thread were in " +
         hostFunctionsText(e.idleHost) + ".";
}

// The class's own sentence, before what the counters and the memory peak add.
std::string classSentence(const Verdict& verdict) {
  const VerdictEvidence& e = verdict.evidence;
  std::string busy = busyClause(e);
  switch (verdict.kind) {
    case BottleneckClass::GpuCompute:
      return "GPU compute bound: " + busy + " and " + idleClause(e) + ".";
    case BottleneckClass::Memory:
      if (!e.memoryBoundKernelNs) return "Memory bound: " + busy + " and " + idleClause(e) + ".";
      return "Memory bound: " + busy + ", kernels under a memory roof took " + percentText(e.memoryBoundShare()) +
             " of the kernel time, and the GPU was " + idleClause(e) + ".";
    case BottleneckClass::Transfer:
      return transferSentence(e);
    case BottleneckClass::Communication:
      return "Communication bound: " + busy + ", collective kernels with no compute kernel beside them " +
             percentText(e.communicationShare()) + " of the busy time, and the GPU was " + idleClause(e) +
             ". A collective runs until every rank has joined it, so part of this is waiting for other ranks (the "
             "straggler finding names the late one).";
    case BottleneckClass::Synchronization:
      return "Synchronization bound: " + busy + " and " + idleClause(e) + ".";
    case BottleneckClass::CudaApi:
      return "CUDA API bound: " + busy + " and " + idleClause(e) + "." + idleHostClause(e);
    case BottleneckClass::Cpu:
      return "CPU bound: " + busy + " and " + idleClause(e) + "." + idleHostClause(e);
    case BottleneckClass::None:
      break;
  }
  return "No verdict: there is no CUDA call and no GPU work in this part of the trace.";
}

}  // namespace

std::string verdictSentence(const Verdict& verdict) {
  std::string sentence = classSentence(verdict);
  const VerdictEvidence& e = verdict.evidence;
  if (e.counters && verdict.kind != BottleneckClass::None) {
    sentence += " " + counterSentence(*e.counters);
  }
  for (const MemoryPeak& peak : verdict.memoryPeaks) sentence += " " + peak.sentence();
  return sentence;
}

}  // namespace gpuscope
