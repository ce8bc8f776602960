// temporal_breakdown: HTA's get_temporal_breakdown(), one row per rank.
#include <algorithm>
#include <cstdio>

#include "core/analysis/hta/hta_rule_support.h"
#include "core/analysis/hta/hta_rules.h"
#include "core/analysis/hta/temporal_breakdown.h"

namespace gpuscope {
namespace {

// HTA's percentage: the share of kernel time, times 100, rounded to 2 places (NaN or inf when kernel time is 0).
double percentage(int64_t part, int64_t kernelUs) {
  return roundLikePandas(100.0 * (static_cast<double>(part) / static_cast<double>(kernelUs)), 2);
}

std::string summary(int64_t rank, const TemporalBreakdown& b) {
  char text[256];
  std::snprintf(text, sizeof text,
                "Rank %lld: of the %lld us from its first GPU operation to the end of its last, the GPU was idle "
                "%.2f%%, computing %.2f%% and doing other work %.2f%%. ",
                static_cast<long long>(rank), static_cast<long long>(b.kernelUs), percentage(b.idleUs, b.kernelUs),
                percentage(b.computeUs, b.kernelUs), percentage(b.nonComputeUs, b.kernelUs));
  return text;
}

class TemporalBreakdownRule : public HtaRule {
 public:
  std::string_view id() const override { return "temporal_breakdown"; }
  std::string_view title() const override { return "Temporal breakdown (HTA)"; }
  std::string_view description() const override {
    return "Holistic Trace Analysis's temporal breakdown: per rank (process with GPU work), the time from its "
           "first GPU operation to the end of its last split into idle (no operation running), compute "
           "(computation kernels) and non-compute (memory copies and sets, NCCL communication), in microseconds "
           "and as percentages, as HTA 0.5.0 computes them.";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = htaFinding(*this);
    finding.evidence.columns = {{"rank", 0},
                                htaColumn("idle_time(us)"),
                                htaColumn("compute_time(us)"),
                                htaColumn("non_compute_time(us)"),
                                htaColumn("kernel_time(us)"),
                                htaColumn("idle_time_pctg"),
                                htaColumn("compute_time_pctg"),
                                htaColumn("non_compute_time_pctg")};
    for (const HtaRank& rank : loadHtaRanks(db, analysisWindow(db, options))) {
      TemporalBreakdown b = temporalBreakdown(rank);
      auto us = [](int64_t value) { return ReportCell(static_cast<double>(value)); };
      finding.evidence.rows.push_back({rank.rank, us(b.idleUs), us(b.computeUs), us(b.nonComputeUs), us(b.kernelUs),
                                       htaRealCell(percentage(b.idleUs, b.kernelUs)),
                                       htaRealCell(percentage(b.computeUs, b.kernelUs)),
                                       htaRealCell(percentage(b.nonComputeUs, b.kernelUs))});
      finding.explanation += summary(rank.rank, b);
      TimeNs end = rank.ops.front().endNs;
      for (const HtaGpuOp& op : rank.ops) end = std::max(end, op.endNs);
      const HtaGpuOp& first = rank.ops.front();
      finding.ranges.push_back(htaGpuRange(first.startNs, end, rank.globalPid, first.deviceId, first.contextId, 0));
    }
    if (finding.found()) {
      finding.explanation +=
          "Idle time is time the GPU had nothing to run; non-compute time is copies, sets and communication "
          "that no computation kernel overlapped.";
      finding.suggestion =
          "Where idle time dominates, idle_time_breakdown shows whether the streams waited on the host (data "
          "loading, Python, synchronization) or between kernels; overlap copies with computation to shrink "
          "non-compute time.";
    }
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeTemporalBreakdownRule() { return std::make_unique<TemporalBreakdownRule>(); }

}  // namespace gpuscope
