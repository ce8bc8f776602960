#include "core/analysis/finding_stake.h"

#include <algorithm>

#include "core/analysis/nsys/rule_rows.h"

namespace gpuscope {

TimeNs stakeWithin(const Finding& finding, TimeInterval window) {
  std::vector<TimeInterval> spans = finding.stakePlaces;
  if (spans.empty()) {
    for (const FindingRange& range : finding.ranges) spans.push_back({range.start, range.end});
  }
  return IntervalSet(std::move(spans)).lengthWithin(window.start, window.end);
}

void measureStakes(const Database& db, const std::vector<RuleRequest>& requests, std::vector<Finding>& findings,
                   TimeInterval window) {
  for (size_t i = 0; i < findings.size() && i < requests.size(); ++i) {
    Finding& finding = findings[i];
    if (!finding.found() || finding.severity == Severity::Info) continue;
    const RuleRequest& request = requests[i];
    bool cut = request.options.accepts("rows") && rowCount(request.options) != SIZE_MAX;
    if (cut) {
      Finding all = request.rule->run(db, request.options.with("rows", "-1"));
      finding.atStakeNs = stakeWithin(all, window);
    } else {
      finding.atStakeNs = stakeWithin(finding, window);
    }
  }
}

void orderByStake(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.atStakeNs != b.atStakeNs) return a.atStakeNs > b.atStakeNs;
    return a.severity > b.severity;
  });
}

}  // namespace gpuscope
