// straggler: in a file holding several ranks (a merge, or one recording of a whole job), the rank whose
// collectives (NCCL kernels) start last most often, and the time the other ranks spent waiting in theirs
// for it. A collective completes on every rank together, so a rank that reaches it late holds every other
// rank in it: on the others' timelines that wait looks like communication time.
#include <algorithm>

#include "core/analysis/analysis_window.h"
#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/ranks/collectives.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// The longest waits, longest first, at most LIMIT: from the earliest other rank's start of a collective the
// straggler started last to the straggler's own start, on the straggler's process.
std::vector<FindingRange> waitPlaces(const std::vector<RankCollectives>& ranks, const Straggler& straggler,
                                     size_t limit) {
  const RankCollectives& slow = ranks[straggler.rankIndex];
  std::vector<FindingRange> places;
  for (size_t k = 0; k < straggler.matched; ++k) {
    TimeNs earliest = slow.start[k];
    for (const auto& rank : ranks) earliest = std::min(earliest, rank.start[k]);
    if (earliest == slow.start[k]) continue;
    FindingRange place;
    place.start = earliest;
    place.end = slow.start[k];
    place.pid = slow.pid;
    places.push_back(place);
  }
  std::stable_sort(places.begin(), places.end(),
                   [](const FindingRange& a, const FindingRange& b) { return a.end - a.start > b.end - b.start; });
  if (places.size() > limit) places.resize(limit);
  return places;
}

class StragglerRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "straggler"; }
  std::string_view title() const override { return "Straggler rank"; }
  std::string_view description() const override {
    return "The rank whose collective kernels (NCCL) start last most often, matching the k-th collective of "
           "each rank, and the time the other ranks spent waiting in their collectives for it. Needs a file with "
           "several ranks: a gpuscope merge of rank files, or one recording of the whole job (each process a rank).";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Rank", 0}, {"Collectives", 0}, {"Started Last", 0}, {"Straggler", 0}};
    finding.suggestion =
        "Look at what the straggler does before its collectives that the others do not (host work, data "
        "loading, a slower GPU or link): its timeline just before each late collective shows it. Evening out "
        "the work per rank, or moving that host work off the training step, gives the others their wait back.";
    // Every rank's collectives count, whatever the options narrow the rule to: a straggler is late only
    // against the others. Narrowed to one rank's processes, the rule reports only that rank as the straggler.
    std::vector<RankCollectives> ranks = readRankCollectives(db);
    std::optional<Straggler> straggler = findStraggler(ranks);
    if (!straggler) {
      finding.explanation = ranks.size() < 2 ? "The file holds fewer than two ranks with collective kernels."
                                             : "No rank starts its collectives last more often than the others.";
      return finding;
    }
    const RankCollectives& slow = ranks[straggler->rankIndex];
    if (!analysisWindow(db, options).holdsProcess(slow.process)) {
      finding.explanation = slow.label + " is the straggler, not this rank.";
      return finding;
    }
    for (size_t r = 0; r < ranks.size(); ++r) {
      finding.evidence.rows.push_back({ranks[r].label, static_cast<int64_t>(ranks[r].start.size()),
                                       static_cast<int64_t>(straggler->timesLastByRank[r]),
                                       std::string(r == straggler->rankIndex ? "yes" : "")});
    }
    finding.facts = {{"rank", slow.rank ? ReportCell(*slow.rank) : ReportCell()},
                     {"label", slow.label},
                     {"pid", static_cast<int64_t>(slow.pid)},
                     {"started_last", static_cast<int64_t>(straggler->timesLast)},
                     {"collectives", static_cast<int64_t>(straggler->matched)},
                     {"others_waited_ns", straggler->othersWaitedNs},
                     {"median_lag_ns", straggler->medianLagNs}};
    finding.ranges = waitPlaces(ranks, *straggler, rowCount(options));
    finding.explanation = slow.label + " started " + std::to_string(straggler->timesLast) + " of " +
                          std::to_string(straggler->matched) + " collectives last (by a median of " +
                          formatDuration(straggler->medianLagNs) + "); the other ranks waited " +
                          formatDuration(straggler->othersWaitedNs) + " in those collectives for it.";
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeStragglerRule() { return std::make_unique<StragglerRule>(); }

}  // namespace gpuscope
