#pragma once
// The peak device memory of a run against each GPU's total, from its allocations and frees (nsys's
// CUDA_GPU_MEMORY_USAGE_EVENTS): the verdict states it, and the device_memory_peak finding reports a peak that
// comes within kNearMemoryShare of the total.
#include <cstdint>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/model/trace_types.h"

namespace gpuscope {

inline constexpr double kNearMemoryShare = 0.90;  // a peak within 10% of the device's total memory

struct MemoryPeak {
  int deviceId = 0;
  uint32_t hw = 0;  // the host's hw field in a merged file (memory_usage.h); 0 in a recording
  int64_t peakBytes = 0;
  TimeNs peakTime = 0;
  int64_t totalBytes = 0;  // TARGET_INFO_GPU.totalMemory; 0 where the file does not say

  double share() const { return totalBytes > 0 ? static_cast<double>(peakBytes) / static_cast<double>(totalBytes) : 0; }
  bool nearTotal() const { return totalBytes > 0 && share() >= kNearMemoryShare; }
  // "Device memory peaked at 256 MiB of 141 GiB (0.2%) on GPU 0 (CUDA memory usage events)."
  std::string sentence() const;
};

// One per GPU with memory usage events, by host and device id; empty without them.
std::vector<MemoryPeak> memoryPeaks(const Database& db);

}  // namespace gpuscope
