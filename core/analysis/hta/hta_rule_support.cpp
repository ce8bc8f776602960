#include "core/analysis/hta/hta_rule_support.h"

#include <cmath>

#include "core/error.h"
#include "core/model/global_id.h"

namespace gpuscope {

std::vector<RuleOption> HtaRule::options() const {
  std::vector<RuleOption> options;
  for (RuleOption& option : AnalysisRule::options()) {
    if (option.name != "rows") options.push_back(std::move(option));
  }
  for (RuleOption& option : ownOptions()) options.push_back(std::move(option));
  return options;
}

Finding htaFinding(const AnalysisRule& rule) {
  Finding finding;
  finding.ruleId = std::string(rule.id());
  finding.severity = Severity::Info;
  finding.title = std::string(rule.title());
  finding.evidence.name = finding.ruleId;
  finding.evidence.title = finding.title;
  return finding;
}

ReportColumn htaColumn(const std::string& title) { return {title, kShortestDecimals}; }

double roundLikePandas(double value, int decimals) {
  double scale = std::pow(10.0, decimals);
  return std::nearbyint(value * scale) / scale;
}

ReportCell htaRealCell(double value) { return optionalCell(!std::isnan(value), value); }

bool htaFlag(const RuleOptions& options, std::string_view name) {
  std::string value = options.text(name);
  if (value == "true" || value == "yes" || value == "1") return true;
  if (value == "false" || value == "no" || value == "0") return false;
  throw TraceError("Option " + std::string(name) + " takes true or false, not '" + value + "'.");
}

FindingRange htaGpuRange(TimeNs start, TimeNs end, int64_t globalPid, uint32_t deviceId, uint32_t contextId,
                         uint32_t streamId) {
  FindingRange range;
  range.start = start;
  range.end = end;
  range.pid = global_id::pid(globalPid);
  range.deviceId = deviceId;
  range.contextId = contextId;
  range.streamId = streamId;
  range.onGpu = true;
  return range;
}

}  // namespace gpuscope
