#pragma once
// The GPU stretches of an analysis to shade on the timeline: its gaps (idle) and low-use chunks.
#include "core/analysis/verdict/analysis_report.h"
#include "ui/timeline/gpu_shading.h"

namespace gpuscope::ui {

GpuShading gpuShadingOf(const AnalysisReport& report);

}  // namespace gpuscope::ui
