#include "core/analysis/verdict/window_figures.h"

#include "core/analysis/hta/hta_trace.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "core/model/global_id.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// HTA's breakdown of the driving thread's process (the first rank with GPU work where there is none).
void addHtaFigures(const Database& db, const VerdictInputs& inputs, WindowFigures& figures) {
  auto ranks = loadHtaRanks(db, AnalysisWindow{figures.window.start, figures.window.end});
  if (ranks.empty()) return;
  const HtaRank* chosen = &ranks.front();
  if (const HostThread* host = inputs.activity.drivingThread()) {
    for (const HtaRank& rank : ranks) {
      if (global_id::processOf(host->globalTid) == rank.globalPid) chosen = &rank;
    }
  }
  TemporalBreakdown breakdown = temporalBreakdown(*chosen);
  figures.htaComputeUs = breakdown.computeUs;
  figures.htaSpanUs = breakdown.kernelUs;
}

}  // namespace

WindowFigures windowFigures(const Database& db, const VerdictInputs& inputs, const Verdict& verdict) {
  WindowFigures figures;
  figures.window =
      verdict.judged ? verdict.judged->window : TimeInterval{verdict.evidence.windowStart, verdict.evidence.windowEnd};
  figures.gpuBusyNs = inputs.activity.gpuBusy.lengthWithin(figures.window.start, figures.window.end);
  for (const GpuOp& op : inputs.activity.ops) {
    if (op.kind != GpuOpKind::Kernel || op.start >= figures.window.end || op.end <= figures.window.start) continue;
    figures.statsKernelNs += op.end - op.start;
    ++figures.statsKernels;
  }
  addHtaFigures(db, inputs, figures);
  return figures;
}

std::string windowFiguresSentence(const WindowFigures& f) {
  double wall = static_cast<double>(f.window.length());
  auto ofWall = [wall](double part) { return wall > 0 ? part / wall : 0.0; };
  double hta = f.htaSpanUs > 0 ? static_cast<double>(f.htaComputeUs) / static_cast<double>(f.htaSpanUs) : 0.0;
  return "Three figures for this window: GPU busy " + percentText(ofWall(static_cast<double>(f.gpuBusyNs))) +
         " (the verdict's: any kernel, copy or memset, overlaps counted once, of the " +
         formatDuration(f.window.length()) + " window); HTA computing " + percentText(hta) +
         " (computation kernels only, on HTA's microsecond grid that rounds each start up and each end down, so "
         "a kernel under a microsecond counts 0 or -1 us, of " +
         formatDuration(f.htaSpanUs * 1000) + " from the first to the last GPU operation); Stats " +
         formatDuration(f.statsKernelNs) + " of kernel time in " + std::to_string(f.statsKernels) +
         " kernels (cuda_gpu_kern_sum: whole durations of the kernels that share time with the window, "
         "concurrent ones each counted), " +
         percentText(ofWall(static_cast<double>(f.statsKernelNs))) + " of the window.";
}

}  // namespace gpuscope
