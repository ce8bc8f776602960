#pragma once
// Kernel instances and per-name totals: the rows of the kernel tables.
#include <cstddef>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

// The kernels of one name (the kernel table's shortName, as the timeline labels them).
struct KernelGroup {
  StringId name = 0;
  size_t count = 0;
  TimeNs total = 0;
  TimeNs min = 0;
  TimeNs max = 0;
  EventRef first;      // the earliest instance
  double share = 0.0;  // fraction of the time of all kernels, in [0, 1]

  double average() const { return count == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(count); }
};

// Every kernel of TRACE, ordered by start time (then track, lane and index).
std::vector<EventRef> kernelInstances(const Trace& trace);
// Kernels grouped by name, by descending total time (then name); INSTANCES as kernelInstances gives them.
std::vector<KernelGroup> summarizeKernels(const Trace& trace, const std::vector<EventRef>& instances);

}  // namespace gpuscope
