// gpu_time_util: parts of the run where a GPU context was busy less than a threshold share of the time.
#include <algorithm>

#include "core/analysis/nsys/gpu_ops.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/error.h"
#include "core/model/interval_set.h"

namespace gpuscope {
namespace {

struct LowStretch {
  TimeNs start = 0;
  TimeNs duration = 0;
  TimeNs busy = 0;
  ContextKey context;
};

// The context's span, from its first operation's start to its last end, cut into CHUNKS pieces of
// ceil(span / chunks) ns (the last one shorter); consecutive pieces used less than THRESHOLD percent
// are reported as one stretch.
std::vector<LowStretch> lowStretches(const ContextKey& context, const std::vector<TimeInterval>& ops, int64_t chunks,
                                     double threshold) {
  std::vector<LowStretch> stretches;
  if (ops.empty()) return stretches;
  TimeNs first = ops.front().start;
  TimeNs last = first;
  for (const TimeInterval& op : ops) last = std::max(last, op.end);
  TimeNs span = last - first;
  if (span <= 0) return stretches;
  TimeNs chunk = (span + chunks - 1) / chunks;
  bool open = false;
  for (int64_t i = 0; i < chunks; ++i) {
    TimeNs from = first + i * chunk;
    if (from >= last) break;
    TimeNs to = std::min(from + chunk, last);
    TimeNs busy = busyTime(ops, from, to);
    bool low = 100.0 * static_cast<double>(busy) / static_cast<double>(to - from) < threshold;
    if (low && open) {
      stretches.back().duration += to - from;
      stretches.back().busy += busy;
    } else if (low) {
      stretches.push_back({from, to - from, busy, context});
    }
    open = low;
  }
  return stretches;
}

class GpuTimeUtilRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "gpu_time_util"; }
  std::string_view title() const override { return "GPU low utilization"; }
  std::string_view description() const override {
    return "Parts of the run where a GPU context was busy (running a kernel, memcpy or memset) less than the "
           "threshold share of the time (threshold, in %; default 50), the context's span cut into chunks "
           "(default 30). The GPU is underused there: feed it larger or more concurrent work, or find what "
           "the host was doing instead.";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"threshold", "50", "Utilization (%) under which a chunk is reported (strictly less)"});
    all.push_back({"chunks", "30", "Number of equal chunks the span is cut into (1 to 10000)"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Row#", 0}, {"In-Use (%)", 1}, {"Duration (ns)", 0}, {"Start (ns)", 0},
                                {"PID", 0},  {"Device ID", 0},  {"Context ID", 0}};
    int64_t chunks = options.integer("chunks");
    if (chunks < 1 || chunks > 10000) throw TraceError("The chunks option of gpu_time_util takes 1 to 10000.");
    double threshold = options.real("threshold");
    std::vector<LowStretch> stretches;
    std::vector<std::vector<TimeInterval>> unused;  // per stretch, the parts no operation covered
    for (const auto& [context, ops] : gpuOpsByContext(db, analysisWindow(db, options))) {
      auto found = lowStretches(context, ops, chunks, threshold);
      IntervalSet busy(ops);
      for (const LowStretch& low : found) unused.push_back(busy.gapsWithin(low.start, low.start + low.duration));
      stretches.insert(stretches.end(), found.begin(), found.end());
    }
    size_t limit = std::min(stretches.size(), rowCount(options));
    for (size_t i = 0; i < limit; ++i) {
      const LowStretch& low = stretches[i];
      double inUse = 100.0 * static_cast<double>(low.busy) / static_cast<double>(low.duration);
      finding.evidence.rows.push_back(
          {static_cast<int64_t>(i + 1), inUse, low.duration, low.start, static_cast<int64_t>(low.context.pid),
           static_cast<int64_t>(low.context.deviceId), static_cast<int64_t>(low.context.contextId)});
      finding.ranges.push_back(
          gpuRange(low.start, low.duration, low.context.pid, low.context.deviceId, low.context.contextId, 0));
      finding.stakePlaces.insert(finding.stakePlaces.end(), unused[i].begin(), unused[i].end());
    }
    return finding;
  }
};

// dx12_mem_ops: DirectX 12 memory operations; CUDA traces have none, and neither do ours.
class Dx12MemOpsRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "dx12_mem_ops"; }
  std::string_view title() const override { return "DX12 memory operations"; }
  std::string_view description() const override {
    return "DirectX 12 heap and resource operations that cost more than they need to (nsys's rule for "
           "Windows graphics traces). gpuscope reads CUDA traces, which hold no DX12 calls, so it never "
           "finds any; it is listed so that the set of rules and their files match nsys analyze.";
  }
  Finding run(const Database&, const RuleOptions&) const override { return emptyFinding(*this, Severity::Info); }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeGpuTimeUtilRule() { return std::make_unique<GpuTimeUtilRule>(); }
std::unique_ptr<AnalysisRule> makeDx12MemOpsRule() { return std::make_unique<Dx12MemOpsRule>(); }

}  // namespace gpuscope
