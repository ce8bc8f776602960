#pragma once
// HTA's measures of one rank's GPU time. The temporal breakdown: from the start of its first GPU operation to the end
// of its last ("kernel time"), how much the GPU was idle (covered by no operation), computing (covered by a computation
// kernel) or busy with other work (memory copies and sets, communication). Times are microseconds on HTA's grid;
// overlapping operations count once.
#include <cstdint>

#include "core/analysis/hta/hta_trace.h"

namespace gpuscope {

struct TemporalBreakdown {
  int64_t idleUs = 0;
  int64_t computeUs = 0;
  int64_t nonComputeUs = 0;  // kernel time - compute - idle
  int64_t kernelUs = 0;
};

TemporalBreakdown temporalBreakdown(const HtaRank& rank);

// HTA's communication/computation overlap of one rank: of the time covered by communication kernels (NCCL),
// the part during which a computation kernel ran too, both on HTA's grid with overlapping kernels merged.
struct CommCompOverlap {
  int64_t communicationUs = 0;
  int64_t overlapUs = 0;
};

CommCompOverlap commCompOverlap(const HtaRank& rank);

}  // namespace gpuscope
