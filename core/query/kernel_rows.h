#pragma once
// The kernel table's rows as KernelIndex numbers: filtered by name and time range and sorted by a column,
// over the trace's columns (a name sorts by a precomputed rank, never by comparing strings per row).
#include <cstdint>
#include <vector>

#include "core/details/kernel_list.h"
#include "core/model/time_interval.h"
#include "core/query/kernel_index.h"

namespace gpuscope {

enum class KernelSortKey { Name, DemangledName, Start, Duration, Device, Context, Stream, Correlation };

struct KernelRowQuery {
  // By StringId: non-zero where a kernel whose short or demangled name is that string shows. Empty: every name.
  std::vector<uint8_t> acceptedNames;
  TimeInterval range;  // empty: the whole trace
  KernelSortKey key = KernelSortKey::Start;
  bool descending = false;

  // True when every kernel shows in time order: INDEX.byStart() is the answer as it is.
  bool isEverythingByStart() const {
    return acceptedNames.empty() && range.empty() && key == KernelSortKey::Start && !descending;
  }
};

// The kernels QUERY keeps, in its order; ties keep time order.
std::vector<uint32_t> selectKernelRows(const Trace& trace, const KernelIndex& index, const KernelRowQuery& query);

// Kernels overlapping RANGE grouped by name, by descending total time (then name), as summarizeKernels.
std::vector<KernelGroup> summarizeKernelRange(const Trace& trace, const KernelIndex& index, TimeInterval range,
                                              KernelGrouping by = KernelGrouping::ShortName);

}  // namespace gpuscope
