#pragma once
// Kernel labels that tell kernels apart: a table grouped by the real kernel (demangled name) shows the short
// name, and two kernels with one short name ("Kernel2", three "reduce_kernel"s) would read the same.
// Each of those gets the shortest part of its demangled name that no other one shares, the rest elided:
//   reduce_kernel<256, …>    reduce_kernel<512, …, ReduceOp<…, MeanOps<…>, …>>    nchwToNhwcKernel<…, 2>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

struct KernelSpelling {
  std::string_view shortName;  // as the timeline labels the kernel
  std::string_view demangled;  // the real kernel; different kernels have different demangled names
};

// One label per entry of KERNELS: its short name where no entry with another demangled name shares it, else
// the short name with the template arguments and parameters (C casts on literals dropped, namespaces of
// heads dropped, nested templates followed down) that tell it from those entries, "…" for the ones left out.
// Where the short name is not the demangled name's own, or nothing short tells two apart, the whole
// demangled name. Entries with one demangled name get one label.
std::vector<std::string> distinguishingKernelLabels(const std::vector<KernelSpelling>& kernels);

}  // namespace gpuscope
