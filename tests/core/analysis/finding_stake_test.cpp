// Findings are listed by their time at stake, as the README's analyze section says: the most first, the more
// severe only between equal times.
#include "core/analysis/finding_stake.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuscope {
namespace {

Finding findingAtStake(const std::string& id, Severity severity, TimeNs atStakeNs) {
  Finding finding;
  finding.ruleId = id;
  finding.severity = severity;
  finding.atStakeNs = atStakeNs;
  return finding;
}

std::vector<std::string> idsOf(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (const Finding& finding : findings) ids.push_back(finding.ruleId);
  return ids;
}

TEST(FindingStake, MoreTimeAtStakeComesBeforeMoreSeverity) {
  // Both within one tenth of a 5 ms window: the 866 us warning still comes first.
  std::vector<Finding> findings = {findingAtStake("critical_749us", Severity::Critical, 749'000),
                                   findingAtStake("warning_866us", Severity::Warning, 866'000),
                                   findingAtStake("warning_3ms", Severity::Warning, 3'000'000)};
  orderByStake(findings);
  EXPECT_EQ(idsOf(findings), (std::vector<std::string>{"warning_3ms", "warning_866us", "critical_749us"}));
}

TEST(FindingStake, SeverityBreaksTiesThenTheOrderTheyCameIn) {
  std::vector<Finding> findings = {findingAtStake("warning_a", Severity::Warning, 500'000),
                                   findingAtStake("critical", Severity::Critical, 500'000),
                                   findingAtStake("warning_b", Severity::Warning, 500'000)};
  orderByStake(findings);
  EXPECT_EQ(idsOf(findings), (std::vector<std::string>{"critical", "warning_a", "warning_b"}));
}

}  // namespace
}  // namespace gpuscope
