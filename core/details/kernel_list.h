#pragma once
// Kernel instances and per-name totals: the rows of the kernel tables.
#include <cstddef>
#include <string>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

// The kernels of one name: the short name the timeline labels them by, or the real kernel (demangled name).
struct KernelGroup {
  StringId name = 0;      // the short name (of the first instance, when grouped by demangled name)
  StringId longName = 0;  // the demangled name (of the first instance, when grouped by short name)
  size_t count = 0;
  TimeNs total = 0;
  TimeNs min = 0;
  TimeNs max = 0;
  EventRef first;      // the earliest instance
  double share = 0.0;  // fraction of the time of all kernels, in [0, 1]
  // What a table calls the group: the short name, told apart when grouped by demangled name and another
  // group shares it ("reduce_kernel<256, …>", distinguishingKernelLabels).
  std::string label;

  double average() const { return count == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(count); }
};

// Every kernel of TRACE, ordered by start time (then track, lane and index).
std::vector<EventRef> kernelInstances(const Trace& trace);
enum class KernelGrouping {
  ShortName,      // as the timeline labels kernels: different templates of one kernel fall together
  DemangledName,  // the real kernel: two SGEMMs with one short name stay apart
};

// Adds kernels one at a time, in any order, to per-name groups; a group's `first` (and the names taken from it)
// is its earliest kernel, the one added first among kernels that start at the same time.
class KernelGrouper {
 public:
  KernelGrouper(const Trace& trace, KernelGrouping by);
  void add(EventRef kernel);
  // The groups by descending total time (then name), with their shares of all the time added.
  std::vector<KernelGroup> finish() &&;

 private:
  const Trace& trace_;
  KernelGrouping by_;
  std::vector<uint32_t> slot_;  // by StringId: 1 + the group's position, 0 for none yet
  std::vector<KernelGroup> groups_;
  std::vector<TimeNs> firstStart_;  // by group: the start of its `first`
  TimeNs all_ = 0;
};

// Kernels grouped by name, by descending total time (then name); INSTANCES as kernelInstances gives them.
std::vector<KernelGroup> summarizeKernels(const Trace& trace, const std::vector<EventRef>& instances,
                                          KernelGrouping by = KernelGrouping::ShortName);

}  // namespace gpuscope
