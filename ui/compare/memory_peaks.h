#pragma once
// The two runs' device memory peaks for the compare summary: the highest peak of any GPU (all its processes
// together, core's MemoryUsage::devicePeak) and, where the trace knows that GPU's total memory, the peak as a
// share of it. Nothing when neither run recorded memory usage.
#include <vector>

#include "core/diff/run_diff.h"
#include "core/model/trace.h"

namespace gpuscope::ui {

std::vector<SummaryMetric> memoryPeakMetrics(const Trace& a, const Trace& b);

}  // namespace gpuscope::ui
