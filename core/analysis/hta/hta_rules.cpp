#include "core/analysis/hta/hta_rules.h"

namespace gpuscope {

std::vector<std::unique_ptr<AnalysisRule>> makeHtaRules() {
  std::vector<std::unique_ptr<AnalysisRule>> rules;
  rules.push_back(makeTemporalBreakdownRule());
  rules.push_back(makeIdleTimeBreakdownRule());
  rules.push_back(makeKernelLaunchStatsRule());
  rules.push_back(makeCommCompOverlapRule());
  return rules;
}

}  // namespace gpuscope
