#include "ui/analysis/analysis_shading.h"

namespace gpuscope::ui {

GpuShading gpuShadingOf(const AnalysisReport& report) {
  GpuShading shading;
  for (const FindingRange& range : report.gpuLowUse)
    shading.push_back({range.deviceId, range.start, range.end, GpuShadeSpan::Kind::LowUse});
  // Gaps last, so they paint over the low-use chunks that hold them.
  for (const FindingRange& range : report.gpuIdle)
    shading.push_back({range.deviceId, range.start, range.end, GpuShadeSpan::Kind::Idle});
  return shading;
}

}  // namespace gpuscope::ui
