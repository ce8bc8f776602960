#include "core/analysis/verdict/analysis_report.h"

#include <algorithm>

#include "core/analysis/finding_stake.h"
#include "core/open/open_trace.h"

namespace gpuscope {
namespace {

std::vector<RuleRequest> everyRule() {
  std::vector<RuleRequest> requests;
  for (const AnalysisRule* rule : analysisRules()) requests.push_back(parseRuleRequest(std::string(rule->id())));
  return requests;
}

// REQUESTS run on DB, measured and ordered against WINDOW (the judged window) where REQUEST asks.
std::vector<Finding> findingsOf(const Database& db, const std::vector<RuleRequest>& requests, TimeInterval window,
                                const AnalysisRequest& request, bool foundOnly) {
  std::vector<Finding> findings = runAnalysis(db, requests);
  if (request.byStake) measureStakes(db, requests, findings, window);
  if (foundOnly) {
    findings.erase(std::remove_if(findings.begin(), findings.end(), [](const Finding& f) { return !f.found(); }),
                   findings.end());
  }
  if (request.byStake) orderByStake(findings);
  return findings;
}

// RANK's findings: REQUESTS narrowed to its processes and the window its verdict judged; found ones only.
std::vector<Finding> rankFindings(const Database& db, const std::vector<RuleRequest>& requests, const RankVerdict& rank,
                                  const AnalysisRequest& request) {
  const VerdictEvidence& e = rank.verdict.evidence;
  TimeInterval window = rank.verdict.judged ? rank.verdict.judged->window : TimeInterval{e.windowStart, e.windowEnd};
  std::vector<RuleRequest> scoped;
  for (const RuleRequest& asked : requests)
    scoped.push_back({asked.rule, asked.options.scopedTo({rank.processes, window})});
  return findingsOf(db, scoped, window, request, true);
}

}  // namespace

AnalysisReport analyzeTraceFile(const std::string& path, const AnalysisRequest& request) {
  Database db = openTrace(path).connect();
  AnalysisReport report;
  report.traceStart = traceStartNs(db);
  VerdictInputs inputs = loadVerdictInputs(db);
  if (request.chooseWindow) {
    ChosenWindow chosen = request.chooseWindow(db);
    report.run = runVerdictOver(db, inputs, chosen.window, chosen.reason);
  } else {
    report.run = runVerdict(db, inputs);
  }
  report.figures = windowFigures(db, inputs, report.run);
  if (request.nvtxVerdicts) report.nvtx = nvtxVerdicts(db, inputs);
  report.ranks = rankVerdicts(db, inputs);
  std::vector<RuleRequest> requests = request.rules.empty() ? everyRule() : request.rules;
  if (report.ranks.empty() || request.wholeFileWithRanks)
    report.findings = findingsOf(db, requests, report.run.judged->window, request, request.foundOnly);
  for (RankVerdict& rank : report.ranks) rank.findings = rankFindings(db, requests, rank, request);
  if (request.shading) {
    // The shading wants every stretch, not nsys's report limits.
    auto shading = runAnalysis(
        db, {parseRuleRequest("gpu_gaps:gap=" + std::to_string(kShadedGapMs) + ":rows=-1"),
             parseRuleRequest("gpu_time_util:threshold=" + std::to_string(kShadedLowUsePercent) + ":rows=-1")});
    report.gpuIdle = std::move(shading[0].ranges);
    report.gpuLowUse = std::move(shading[1].ranges);
  }
  return report;
}

}  // namespace gpuscope
