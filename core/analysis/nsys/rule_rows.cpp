#include "core/analysis/nsys/rule_rows.h"

#include <cstdint>

#include "core/error.h"

namespace gpuscope {

size_t rowCount(const RuleOptions& options) {
  int64_t rows = options.integer("rows");
  if (rows == -1) return SIZE_MAX;
  if (rows < 0)
    throw TraceError("The rows option takes a number of rows, or -1 for all, not " + std::to_string(rows) + ".");
  return static_cast<size_t>(rows);
}

std::string rowLimit(const RuleOptions& options) {
  size_t rows = rowCount(options);
  return rows == SIZE_MAX ? std::string() : " LIMIT " + std::to_string(rows);
}

Finding emptyFinding(const AnalysisRule& rule, Severity severity) {
  Finding finding;
  finding.ruleId = std::string(rule.id());
  finding.severity = severity;
  finding.title = std::string(rule.title());
  finding.explanation = std::string(rule.description());
  finding.evidence.name = finding.ruleId;
  finding.evidence.title = finding.title;
  return finding;
}

FindingRange gpuRange(TimeNs start, TimeNs duration, int64_t pid, int64_t deviceId, int64_t contextId,
                      int64_t streamId) {
  FindingRange range;
  range.start = start;
  range.end = start + duration;
  range.pid = static_cast<uint32_t>(pid);
  range.deviceId = static_cast<uint32_t>(deviceId);
  range.contextId = static_cast<uint32_t>(contextId);
  range.streamId = static_cast<uint32_t>(streamId);
  range.onGpu = true;
  return range;
}

}  // namespace gpuscope
