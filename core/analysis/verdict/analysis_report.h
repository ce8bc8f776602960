#pragma once
// AnalysisReport: everything the viewer's Analysis tab and `gpuscope analyze` show, computed in one call from a
// trace file so a worker thread can do it on its own connection: the run's verdict (on its judged window, with
// the start-up set apart), the three busy figures of that window, one verdict per NVTX range name, the findings
// of the rules asked (the most time at stake in the judged window first, finding_stake.h), and the GPU
// stretches to shade on the timeline. In a file of several ranks, one verdict per rank with that rank's
// findings beside it: the rules run on the rank's processes inside the window its verdict judged.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/finding.h"
#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/rank_verdicts.h"
#include "core/analysis/verdict/verdict.h"
#include "core/analysis/verdict/window_figures.h"

namespace gpuscope {

// What the timeline shades, so that its legend and tooltips say the thresholds the analysis used.
inline constexpr int kShadedGapMs = 1;           // gpu_gaps's gap: a shaded gap is strictly longer
inline constexpr int kShadedLowUsePercent = 50;  // gpu_time_util's threshold: a shaded chunk is busy less

// A window a user chose to judge instead of the steady state (--range, --nvtx), and why.
struct ChosenWindow {
  TimeInterval window;
  std::string reason;  // "--range 2s:5s"
};

// What to compute; the defaults are the viewer's.
struct AnalysisRequest {
  std::vector<RuleRequest> rules;  // empty: every rule with its defaults
  // Reads the window to judge from the opened file (times there count from its start); unset: the steady state.
  std::function<ChosenWindow(const Database&)> chooseWindow;
  bool nvtxVerdicts = true;  // one verdict per NVTX range name
  bool foundOnly = true;     // false: a finding for every rule asked, found or not (the whole file's)
  bool byStake = true;       // measure and order by time at stake; false: the rules' order, unmeasured
  bool shading = true;       // gpuIdle and gpuLowUse
  // The whole file's findings in a file of several ranks too, beside each rank's (nsys analyze's csv blocks);
  // the viewer shows the ranks' only.
  bool wholeFileWithRanks = false;
};

struct AnalysisReport {
  Verdict run;
  TimeNs traceStart = 0;  // traceStartNs: where the times shown to people count from (findingText)
  WindowFigures figures;  // of run's judged window
  std::vector<RangeVerdict> nvtx;
  std::vector<RankVerdict> ranks;  // a file of several ranks: one verdict each, with its findings
  // The whole file's (in a file of several ranks only where asked); found ones only unless asked, the most at
  // stake first.
  std::vector<Finding> findings;
  std::vector<FindingRange> gpuIdle;    // gpu_gaps with gap=kShadedGapMs: every GPU gap longer than that
  std::vector<FindingRange> gpuLowUse;  // gpu_time_util's chunks used less than kShadedLowUsePercent
};

// Opens PATH through the door (core/open: an SQLite trace, or a PyTorch trace through its import) and analyzes it.
// Throws TraceError with one sentence when the file cannot be read or a chosen window is not in it.
AnalysisReport analyzeTraceFile(const std::string& path, const AnalysisRequest& request = {});

}  // namespace gpuscope
