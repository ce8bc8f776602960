// gpu_gaps: stretches where a GPU context ran nothing at all, longer than a threshold.
#include <algorithm>

#include "core/analysis/nsys/gpu_ops.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/error.h"

namespace gpuscope {
namespace {

struct Gap {
  TimeNs start;
  TimeNs duration;
  ContextKey context;
};

class GpuGapsRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "gpu_gaps"; }
  std::string_view title() const override { return "GPU gaps"; }
  std::string_view description() const override {
    return "Stretches where a GPU context ran no kernel, memcpy or memset for longer than the threshold (gap, "
           "in ms; default 500). The GPU waited on the host there: look at what the CPU threads did in that "
           "time (data loading, synchronization, Python overhead) and overlap it with GPU work.";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"gap", "500", "Minimum gap, in milliseconds (a gap must be strictly longer)"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Row#", 0}, {"Duration (ns)", 0}, {"Start (ns)", 0},
                                {"PID", 0},  {"Device ID", 0},     {"Context ID", 0}};
    double gapMs = options.real("gap");
    if (gapMs < 0) throw TraceError("The gap option of gpu_gaps takes milliseconds, 0 or more.");
    TimeNs threshold = static_cast<TimeNs>(gapMs * 1e6);
    std::vector<Gap> gaps;
    for (const auto& [context, ops] : gpuOpsByContext(db, analysisWindow(db, options))) {
      TimeNs busyUntil = ops.empty() ? 0 : ops.front().end;
      for (size_t i = 1; i < ops.size(); ++i) {
        if (ops[i].start - busyUntil > threshold) gaps.push_back({busyUntil, ops[i].start - busyUntil, context});
        busyUntil = std::max(busyUntil, ops[i].end);
      }
    }
    std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) {
      return a.duration != b.duration ? a.duration > b.duration : a.start < b.start;
    });
    size_t limit = std::min(gaps.size(), rowCount(options));
    for (size_t i = 0; i < limit; ++i) {
      const Gap& gap = gaps[i];
      finding.evidence.rows.push_back(
          {static_cast<int64_t>(i + 1), gap.duration, gap.start, static_cast<int64_t>(gap.context.pid),
           static_cast<int64_t>(gap.context.deviceId), static_cast<int64_t>(gap.context.contextId)});
      finding.ranges.push_back(
          gpuRange(gap.start, gap.duration, gap.context.pid, gap.context.deviceId, gap.context.contextId, 0));
    }
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeGpuGapsRule() { return std::make_unique<GpuGapsRule>(); }

}  // namespace gpuscope
