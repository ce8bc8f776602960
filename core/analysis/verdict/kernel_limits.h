#pragma once
// KernelLimit: what a kernel's recorded or imported counters (GPUSCOPE_KERNEL_METRICS) say limits it,
// kernels grouped by name as the roofline groups them: a memory roof (DRAM, L2, L1) or a compute peak.
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/roofline/roofline.h"

namespace gpuscope {

struct KernelLimit {
  RooflinePoint point;  // the name's instances with metrics, summed
  RooflineAssessment assessment;
  bool memoryBound = false;  // the lowest roof under the point is a memory level's
};

// One per (device, kernel name) with metrics, longest total time first; empty without metrics.
std::vector<KernelLimit> kernelLimits(const Database& db);

}  // namespace gpuscope
