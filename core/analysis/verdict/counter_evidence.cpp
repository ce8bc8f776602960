#include "core/analysis/verdict/counter_evidence.h"

#include <algorithm>
#include <cstdio>

#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/sampled_means.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// SERIES summed over the samples inside every window.
SeriesStats statsOver(const GpuMetricDevice& device, const MetricSeries& series,
                      const std::vector<TimeInterval>& windows) {
  SeriesStats total;
  for (const TimeInterval& window : windows) {
    SeriesStats part = samplesInside(device, series, window);
    total.count += part.count;
    total.sum += part.sum;
  }
  return total;
}

std::optional<double> meanOf(const GpuMetricDevice& device, std::string_view name,
                             const std::vector<TimeInterval>& windows) {
  const MetricSeries* series = device.find(name);
  if (series == nullptr) return std::nullopt;
  SeriesStats stats = statsOver(device, *series, windows);
  if (stats.count == 0) return std::nullopt;
  return stats.mean();
}

CounterEvidence evidenceOf(const GpuMetricDevice& device, const std::vector<TimeInterval>& windows) {
  CounterEvidence evidence;
  evidence.deviceId = device.deviceId;
  evidence.frequencyHz = device.frequencyHz();
  evidence.samples = statsOver(device, device.metrics.front(), windows).count;
  evidence.smsActive = meanOf(device, gpu_metric::kSmsActive, windows);
  evidence.smIssue = meanOf(device, gpu_metric::kSmIssue, windows);
  evidence.tensorActive = meanOf(device, gpu_metric::kTensorActive, windows);
  evidence.dramRead = meanOf(device, gpu_metric::kDramRead, windows);
  evidence.dramWrite = meanOf(device, gpu_metric::kDramWrite, windows);
  return evidence;
}

}  // namespace

double CounterEvidence::computeThroughput() const { return std::max(smIssue.value_or(0), tensorActive.value_or(0)); }

bool CounterEvidence::memoryBound() const {
  bool dram = dramRead || dramWrite;
  bool compute = smIssue || tensorActive;
  return dram && compute && dramThroughput() > computeThroughput();
}

std::string CounterEvidence::source() const {
  return "GPU metrics sampled at " + engineeringText(frequencyHz, "Hz") + ", " + formatCount(samples) + " samples";
}

namespace {

std::string percentOf(std::optional<double> value) {
  if (!value) return "not recorded";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", *value);
  return text;
}

}  // namespace

std::string counterSentence(const CounterEvidence& c) {
  bool both = (c.dramRead || c.dramWrite) && (c.smIssue || c.tensorActive);
  std::string lead = !both             ? "Its counters: "
                     : c.memoryBound() ? "Its counters show more DRAM traffic than math: "
                                       : "Its counters show more math than DRAM traffic: ";
  std::string dram = c.dramRead || c.dramWrite
                         ? "DRAM throughput " + percentOf(c.dramThroughput()) + " of peak (read " +
                               percentOf(c.dramRead) + ", write " + percentOf(c.dramWrite) + ")"
                         : "DRAM throughput not recorded";
  std::string tensor = !c.tensorActive ? "" : tensorCoresUsed(c) ? "; tensor cores ran" : "; tensor cores stayed idle";
  return lead + dram + ", SM Issue " + percentOf(c.smIssue) + ", Tensor Active " + percentOf(c.tensorActive) +
         ", SMs Active " + percentOf(c.smsActive) + tensor + " (" + c.source() + ").";
}

bool tensorCoresUsed(const CounterEvidence& c) { return c.tensorActive.value_or(0) >= kTensorCoresUsedPercent; }

std::optional<CounterEvidence> counterEvidence(const GpuMetrics& metrics, const std::vector<TimeInterval>& windows) {
  std::optional<CounterEvidence> busiest;
  for (const GpuMetricDevice& device : metrics.devices) {
    if (device.metrics.empty()) continue;
    CounterEvidence evidence = evidenceOf(device, windows);
    if (evidence.samples < kLeastSamplesForMeans) continue;
    if (!busiest || evidence.smsActive.value_or(0) > busiest->smsActive.value_or(0)) busiest = evidence;
  }
  return busiest;
}

}  // namespace gpuscope
