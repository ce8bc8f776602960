#pragma once
// The GPU's sampled metrics over the instances of chosen kernels: what the kernel findings add as counter
// evidence where a trace has GPU metrics (GPU_METRICS) and no per-launch kernel metrics.
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "core/analysis/analysis_window.h"
#include "core/metrics/gpu_metrics.h"

namespace gpuscope {

// Per kernel name in NAMES: METRIC summed over the samples inside each of its instances in WINDOW (samples whose
// interval lies inside the instance, on its device).
std::map<std::string, SeriesStats> sampledByKernelName(const Database& db, const AnalysisWindow& window,
                                                       const GpuMetrics& metrics, std::string_view metric,
                                                       const std::set<std::string>& names);

}  // namespace gpuscope
