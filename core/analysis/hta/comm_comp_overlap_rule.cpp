// comm_comp_overlap: HTA's get_comm_comp_overlap(), one row per rank: the share of its communication (NCCL)
// kernel time during which computation kernels ran too. Low overlap means the ranks wait in communication
// with nothing to compute.
#include "core/analysis/hta/hta_rule_support.h"
#include "core/analysis/hta/hta_rules.h"
#include "core/analysis/hta/temporal_breakdown.h"

namespace gpuscope {
namespace {

class CommCompOverlapRule : public HtaRule {
 public:
  std::string_view id() const override { return "comm_comp_overlap"; }
  std::string_view title() const override { return "Communication/computation overlap (HTA)"; }
  std::string_view description() const override {
    return "Holistic Trace Analysis's communication/computation overlap: per rank, the percentage of the time "
           "covered by communication kernels (NCCL) during which a computation kernel ran too, on HTA's "
           "microsecond grid, as HTA 0.5.0 computes it.";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = htaFinding(*this);
    finding.evidence.columns = {{"rank", 0}, htaColumn("comp_comm_overlap_pctg")};
    for (const HtaRank& rank : loadHtaRanks(db, analysisWindow(db, options))) {
      CommCompOverlap overlap = commCompOverlap(rank);
      if (overlap.communicationUs <= 0) continue;  // no communication: nothing to overlap
      double share = static_cast<double>(overlap.overlapUs) / static_cast<double>(overlap.communicationUs);
      finding.evidence.rows.push_back({rank.rank, htaRealCell(roundLikePandas(100.0 * share, 2))});
      finding.explanation += "Rank " + std::to_string(rank.rank) + ": computation overlapped " +
                             std::to_string(overlap.overlapUs) + " us of its " +
                             std::to_string(overlap.communicationUs) + " us of communication. ";
    }
    if (finding.found())
      finding.suggestion =
          "Where overlap is low, the rank waits in its collectives with nothing to compute: start the "
          "all-reduce of each bucket as soon as its gradients are ready (DDP does this; check bucket sizes), "
          "and look for a straggler rank that makes the others wait.";
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeCommCompOverlapRule() { return std::make_unique<CommCompOverlapRule>(); }

}  // namespace gpuscope
