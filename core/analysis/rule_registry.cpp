#include "core/analysis/rule_registry.h"

#include <map>
#include <memory>

#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/hta/hta_rules.h"
#include "core/analysis/nsys/nsys_rules.h"
#include "core/error.h"

namespace gpuscope {
namespace {

std::vector<std::unique_ptr<AnalysisRule>>& ownedRules() {
  static std::vector<std::unique_ptr<AnalysisRule>> rules = [] {
    auto list = makeNsysRules();
    for (auto& rule : makeHtaRules()) list.push_back(std::move(rule));
    for (auto& rule : makeFindingRules()) list.push_back(std::move(rule));
    return list;
  }();
  return rules;
}

}  // namespace

const std::vector<const AnalysisRule*>& analysisRules() {
  static const std::vector<const AnalysisRule*> rules = [] {
    std::vector<const AnalysisRule*> list;
    for (const auto& rule : ownedRules()) list.push_back(rule.get());
    return list;
  }();
  return rules;
}

const AnalysisRule& findAnalysisRule(std::string_view id) {
  std::string known;
  for (const AnalysisRule* rule : analysisRules()) {
    if (rule->id() == id) return *rule;
    known += (known.empty() ? "" : ", ") + std::string(rule->id());
  }
  throw TraceError("There is no analysis rule '" + std::string(id) + "'; the rules are " + known + ".");
}

RuleRequest parseRuleRequest(const std::string& spec) {
  size_t colon = spec.find(':');
  const AnalysisRule& rule = findAnalysisRule(spec.substr(0, colon));
  std::map<std::string, std::string> values;
  while (colon != std::string::npos) {
    size_t next = spec.find(':', colon + 1);
    std::string item = spec.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
    size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw TraceError("Rule options are written " + std::string(rule.id()) + ":name=value:name=value, and '" + item +
                       "' has no name=value.");
    }
    values[item.substr(0, equals)] = item.substr(equals + 1);
    colon = next;
  }
  return {&rule, RuleOptions(rule.id(), std::move(values), rule.options())};
}

std::vector<Finding> runAnalysis(const Database& db, const std::vector<RuleRequest>& requests) {
  std::vector<Finding> findings;
  findings.reserve(requests.size());
  for (const RuleRequest& request : requests) findings.push_back(request.rule->run(db, request.options));
  return findings;
}

}  // namespace gpuscope
