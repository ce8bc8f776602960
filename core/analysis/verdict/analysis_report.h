#pragma once
// AnalysisReport: everything the viewer's Analysis tab shows, computed in one call from a trace file so a
// worker thread can do it on its own connection: the run's verdict (on its judged window, with the start-up
// set apart), the three busy figures of that window, one verdict per NVTX range name, the findings of every
// rule that found something (the most time at stake in the judged window first, finding_stake.h), and the
// GPU stretches to shade on the timeline; in a file of several ranks, one verdict per rank.
#include <string>
#include <vector>

#include "core/analysis/finding.h"
#include "core/analysis/verdict/rank_verdicts.h"
#include "core/analysis/verdict/verdict.h"
#include "core/analysis/verdict/window_figures.h"

namespace gpuscope {

// What the timeline shades, so that its legend and tooltips say the thresholds the analysis used.
inline constexpr int kShadedGapMs = 1;           // gpu_gaps's gap: a shaded gap is strictly longer
inline constexpr int kShadedLowUsePercent = 50;  // gpu_time_util's threshold: a shaded chunk is busy less

struct AnalysisReport {
  Verdict run;
  WindowFigures figures;  // of run's judged window
  std::vector<RangeVerdict> nvtx;
  std::vector<RankVerdict> ranks;       // a file of several ranks: one verdict each (rank_verdicts.h)
  std::vector<Finding> findings;        // found ones only, the most time at stake first
  std::vector<FindingRange> gpuIdle;    // gpu_gaps with gap=kShadedGapMs: every GPU gap longer than that
  std::vector<FindingRange> gpuLowUse;  // gpu_time_util's chunks used less than kShadedLowUsePercent
};

// Opens PATH through the door (core/open: an SQLite trace, or a PyTorch trace through its import) and analyzes it.
// Throws TraceError with one sentence when the file cannot be read.
AnalysisReport analyzeTraceFile(const std::string& path);

}  // namespace gpuscope
