#pragma once
// Kernel time by kernel name inside an analysis window, and the launches of chosen names: what the
// kernel findings weigh (a share of GPU time) and point at (the longest instances).
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/analysis_window.h"
#include "core/analysis/finding.h"

namespace gpuscope {

struct KernelNameTime {
  std::string name;  // demangled (the short name where the file has none)
  int64_t instances = 0;
  TimeNs totalNs = 0;
};

struct KernelTimes {
  std::vector<KernelNameTime> names;  // longest total first
  TimeNs totalNs = 0;                 // every kernel in the window
  double shareOf(TimeNs part) const { return totalNs > 0 ? static_cast<double>(part) / totalNs : 0.0; }
};

// Kernels with start > 0 inside WINDOW; empty without a kernel table.
KernelTimes kernelTimesByName(const Database& db, const AnalysisWindow& window);

// The GPU ranges of the longest LIMIT kernels inside WINDOW whose name is in NAMES.
std::vector<FindingRange> longestKernelRanges(const Database& db, const AnalysisWindow& window,
                                              const std::set<std::string>& names, size_t limit);

}  // namespace gpuscope
