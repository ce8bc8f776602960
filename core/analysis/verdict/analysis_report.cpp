#include "core/analysis/verdict/analysis_report.h"

#include <algorithm>

#include "core/analysis/rule_registry.h"
#include "core/open/open_trace.h"

namespace gpuscope {

AnalysisReport analyzeTraceFile(const std::string& path) {
  Database db = openTrace(path).connect();
  AnalysisReport report;
  VerdictInputs inputs = loadVerdictInputs(db);
  report.run = runVerdict(inputs);
  report.nvtx = nvtxVerdicts(db, inputs);
  std::vector<RuleRequest> requests;
  for (const AnalysisRule* rule : analysisRules()) requests.push_back(parseRuleRequest(std::string(rule->id())));
  for (Finding& finding : runAnalysis(db, requests)) {
    if (finding.found()) report.findings.push_back(std::move(finding));
  }
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  // The shading wants every stretch, not nsys's report limits.
  auto shading =
      runAnalysis(db, {parseRuleRequest("gpu_gaps:gap=1:rows=-1"), parseRuleRequest("gpu_time_util:rows=-1")});
  report.gpuIdle = std::move(shading[0].ranges);
  report.gpuLowUse = std::move(shading[1].ranges);
  return report;
}

}  // namespace gpuscope
