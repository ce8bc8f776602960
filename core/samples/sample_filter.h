#pragma once
// Which samples a view asks for: a process, a thread, and time windows (a ruler range, an NVTX range's
// instances, the GPU's idle gaps). The reader applies it to the file, selectSamples to samples in memory.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/time_interval.h"
#include "core/samples/cpu_samples.h"

namespace gpuscope {

struct SampleFilter {
  std::optional<uint32_t> pid;
  std::optional<uint32_t> tid;
  // Samples inside any of these windows, on the trace's clock; none: the whole run.
  std::vector<TimeInterval> windows;
};

class SampleMatcher {
 public:
  explicit SampleMatcher(const SampleFilter& filter);
  bool keepsTime(TimeNs start) const;
  bool keeps(int64_t globalTid, TimeNs start) const;

 private:
  SampleFilter filter_;
  std::vector<TimeInterval> joined_;  // the windows sorted by start, overlapping ones joined
};

// The samples FILTER keeps, with their stacks and all of SAMPLES' names.
CpuSamples selectSamples(const CpuSamples& samples, const SampleFilter& filter);

}  // namespace gpuscope
