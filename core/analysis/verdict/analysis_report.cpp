#include "core/analysis/verdict/analysis_report.h"

#include <algorithm>

#include "core/analysis/finding_stake.h"
#include "core/analysis/rule_registry.h"
#include "core/open/open_trace.h"

namespace gpuscope {

AnalysisReport analyzeTraceFile(const std::string& path) {
  Database db = openTrace(path).connect();
  AnalysisReport report;
  VerdictInputs inputs = loadVerdictInputs(db);
  report.run = runVerdict(db, inputs);
  report.figures = windowFigures(db, inputs, report.run);
  report.nvtx = nvtxVerdicts(db, inputs);
  report.ranks = rankVerdicts(db, inputs);
  std::vector<RuleRequest> requests;
  for (const AnalysisRule* rule : analysisRules()) requests.push_back(parseRuleRequest(std::string(rule->id())));
  std::vector<Finding> findings = runAnalysis(db, requests);
  measureStakes(db, requests, findings, report.run.judged->window);
  for (Finding& finding : findings) {
    if (finding.found()) report.findings.push_back(std::move(finding));
  }
  orderByStake(report.findings, report.run.judged->window);
  // The shading wants every stretch, not nsys's report limits.
  auto shading = runAnalysis(
      db, {parseRuleRequest("gpu_gaps:gap=" + std::to_string(kShadedGapMs) + ":rows=-1"),
           parseRuleRequest("gpu_time_util:threshold=" + std::to_string(kShadedLowUsePercent) + ":rows=-1")});
  report.gpuIdle = std::move(shading[0].ranges);
  report.gpuLowUse = std::move(shading[1].ranges);
  return report;
}

}  // namespace gpuscope
