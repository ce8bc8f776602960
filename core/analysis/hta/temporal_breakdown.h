#pragma once
// HTA's temporal breakdown of one rank: from the start of its first GPU operation to the end of its
// last ("kernel time"), how much the GPU was idle (covered by no operation), computing (covered by a
// computation kernel) or busy with other work (memory copies and sets, communication). Times are
// microseconds on HTA's grid; overlapping operations count once.
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

}  // namespace gpuscope
