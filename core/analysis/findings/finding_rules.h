#pragma once
// The bottleneck findings beyond nsys's rules: the GPU waiting on the host, FP32 GEMMs without tensor
// cores, launch-bound short kernels, copies that block the host, low-efficiency memory access, the rank that
// holds the others back in their collectives, a GPU busy but mostly empty on its counters, and device memory near
// its total.
// Each is an AnalysisRule with the common options (rows, start, end, nvtx) and its own thresholds.
#include <memory>
#include <vector>

#include "core/analysis/analysis_rule.h"

namespace gpuscope {

std::unique_ptr<AnalysisRule> makeGpuWaitsOnHostRule();
std::unique_ptr<AnalysisRule> makeFp32GemmRule();
std::unique_ptr<AnalysisRule> makeLaunchBoundRule();
std::unique_ptr<AnalysisRule> makeBlockingCopiesRule();
std::unique_ptr<AnalysisRule> makeMemoryAccessRule();
std::unique_ptr<AnalysisRule> makeStragglerRule();
std::unique_ptr<AnalysisRule> makeGpuMostlyEmptyRule();
std::unique_ptr<AnalysisRule> makeDeviceMemoryPeakRule();

// All of them, in the order above.
std::vector<std::unique_ptr<AnalysisRule>> makeFindingRules();

}  // namespace gpuscope
