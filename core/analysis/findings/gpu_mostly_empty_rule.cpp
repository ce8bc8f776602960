// gpu_mostly_empty: kernels kept the GPU busy while few of its SMs worked (tiny grids, one-block launches, small
// kernels serialized on one stream). Told by the GPU's sampled SMs Active counted only while kernels ran: each
// sample's value over the share of its interval that kernels covered.
#include <algorithm>
#include <cstdio>

#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/findings/kernel_times.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/gpu_metrics.h"
#include "core/model/global_id.h"
#include "core/model/interval_set.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

struct DeviceKernels {
  std::vector<TimeInterval> intervals;
  TimeNs first = 0, last = 0;
};

// By (host hw field, device id): in a merged file each rank's GPU 0 is its own.
std::map<std::pair<uint32_t, int>, DeviceKernels> kernelsByDevice(const Database& db, const AnalysisWindow& window) {
  std::map<std::pair<uint32_t, int>, DeviceKernels> byDevice;
  if (!db.hasTable(table::kKernel)) return byDevice;
  auto statement = db.prepare("SELECT k.start, k.end, k.deviceId, k.globalPid FROM " + std::string(table::kKernel) +
                              " k WHERE k.start > 0 AND k.end >= k.start AND " + window.sqlCondition("k."));
  while (statement.step()) {
    DeviceKernels& device = byDevice[{global_id::hw(statement.int64(3)), static_cast<int>(statement.int64(2))}];
    TimeInterval kernel{statement.int64(0), statement.int64(1)};
    if (device.intervals.empty() || kernel.start < device.first) device.first = kernel.start;
    device.last = std::max(device.last, kernel.end);
    device.intervals.push_back(kernel);
  }
  return byDevice;
}

// What one GPU's counters said while its kernels ran.
struct EmptyBusy {
  int deviceId = 0;
  double busyShare = 0;        // of [first kernel start, last kernel end]
  double smsWhileKernels = 0;  // percent
  size_t samples = 0;          // samples that kernels covered in part or whole
  double frequencyHz = 0;
};

std::optional<EmptyBusy> measure(const GpuMetricDevice& device, const DeviceKernels& kernels) {
  const MetricSeries* sms = device.find(gpu_metric::kSmsActive);
  if (sms == nullptr || device.period <= 0 || kernels.last <= kernels.first) return std::nullopt;
  IntervalSet busy(kernels.intervals);
  EmptyBusy out;
  out.deviceId = device.deviceId;
  out.frequencyHz = device.frequencyHz();
  out.busyShare = static_cast<double>(busy.lengthWithin(kernels.first, kernels.last)) /
                  static_cast<double>(kernels.last - kernels.first);
  double active = 0, covered = 0;
  // Each sample covers [timestamp, timestamp + period): gpu_metrics.h.
  auto [first, last] = sms->indexRange(kernels.first - device.period, kernels.last);
  for (size_t i = first; i < last; ++i) {
    TimeNs begin = sms->times()[i];
    double coverage = static_cast<double>(busy.lengthWithin(begin, begin + device.period)) / device.period;
    if (coverage <= 0) continue;
    active += static_cast<double>(sms->values()[i]);
    covered += coverage;
    ++out.samples;
  }
  if (covered <= 0) return std::nullopt;
  out.smsWhileKernels = std::min(100.0, active / covered);
  return out;
}

std::string percentFigure(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", percent);
  return text;
}

class GpuMostlyEmptyRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "gpu_mostly_empty"; }
  std::string_view title() const override { return "GPU busy but mostly empty"; }
  std::string_view description() const override {
    return "Kernels kept the GPU busy while few of its SMs worked: the GPU's sampled SMs Active (GPU metrics), "
           "counted only while kernels ran, stayed low. Tiny grids with fewer blocks than the GPU has SMs, "
           "one-block launches and small kernels serialized on one stream do this; the GPU looks busy on the "
           "timeline and in utilization figures while most of it idles. Reported when kernels ran at least the "
           "busy option (%) of the time between the first and last kernel and SMs Active while they ran stayed "
           "under the sms option (%).";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"busy", "20", "Share of time (%) kernels must run for the GPU to count as busy"});
    all.push_back({"sms", "25", "SMs Active (%) while kernels ran below which the GPU counts as mostly empty"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {
        {"Share of Kernel Time (%)", 1}, {"Total Time (ns)", 0}, {"Instances", 0}, {"Kernel", 0}};
    finding.suggestion =
        "Give each launch more work: batch small operations (larger batches, fused kernels through torch.compile "
        "or CUDA graphs), launch grids of several blocks per SM, and run independent small kernels on separate "
        "streams.";
    GpuMetrics metrics;
    try {
      metrics = readGpuMetrics(db);
    } catch (const std::exception&) {
      return finding;
    }
    AnalysisWindow window = analysisWindow(db, options);
    std::optional<EmptyBusy> worst;
    for (const auto& [key, kernels] : kernelsByDevice(db, window)) {
      const GpuMetricDevice* device = metrics.device(key.second, key.first);
      auto measured = device ? measure(*device, kernels) : std::nullopt;
      if (!measured || 100.0 * measured->busyShare < options.real("busy")) continue;
      if (measured->smsWhileKernels >= options.real("sms")) continue;
      if (!worst || measured->smsWhileKernels < worst->smsWhileKernels) worst = measured;
    }
    if (!worst) return finding;
    KernelTimes times = kernelTimesByName(db, window);
    std::set<std::string> names;
    for (const KernelNameTime& kernel : times.names) {
      if (finding.evidence.rows.size() >= rowCount(options)) break;
      finding.evidence.rows.push_back(
          {100.0 * times.shareOf(kernel.totalNs), kernel.totalNs, kernel.instances, kernel.name});
      names.insert(kernel.name);
    }
    std::string source = "GPU metrics sampled at " + engineeringText(worst->frequencyHz, "Hz") + ", " +
                         formatCount(worst->samples) + " samples";
    finding.facts = {{"device", int64_t{worst->deviceId}},
                     {"kernel_busy_share", worst->busyShare},
                     {"sms_active_while_kernels_pct", worst->smsWhileKernels},
                     {"source", source}};
    finding.explanation = "On GPU " + std::to_string(worst->deviceId) + " kernels ran " +
                          percentText(worst->busyShare) + " of the time between the first and the last, but while " +
                          "they ran SMs Active averaged only " + percentFigure(worst->smsWhileKernels) + " (" + source +
                          "): most of the GPU idled inside its busy time. " + finding.explanation;
    finding.ranges = longestKernelRanges(db, window, names, rowCount(options));
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeGpuMostlyEmptyRule() { return std::make_unique<GpuMostlyEmptyRule>(); }

}  // namespace gpuscope
