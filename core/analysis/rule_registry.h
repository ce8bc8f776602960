#pragma once
// The analysis rules gpuscope knows, and `-r id:key=value:...` specs turned into runnable rules.
// Further rule sets (HTA's breakdowns, the bottleneck findings) register here too.
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analysis_rule.h"

namespace gpuscope {

// Every rule, in the order `analyze` runs them by default.
const std::vector<const AnalysisRule*>& analysisRules();
// The rule named ID; throws TraceError listing the known ids when there is none.
const AnalysisRule& findAnalysisRule(std::string_view id);

struct RuleRequest {
  const AnalysisRule* rule = nullptr;
  RuleOptions options;
};
// "gpu_gaps:gap=100:rows=-1" -> the rule and its checked options; throws TraceError with one sentence.
RuleRequest parseRuleRequest(const std::string& spec);

// Runs each request on DB, in order.
std::vector<Finding> runAnalysis(const Database& db, const std::vector<RuleRequest>& requests);

}  // namespace gpuscope
