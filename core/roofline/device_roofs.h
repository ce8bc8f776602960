#pragma once
// DeviceRoofs: a GPU's compute peaks per precision and bandwidth per memory level, from TARGET_INFO_GPU and
// a table of per-SM, per-clock rates by architecture.
#include <array>
#include <string>
#include <string_view>

#include "core/model/trace.h"
#include "core/ncu/kernel_metrics.h"

namespace gpuscope {

// What one SM does per clock on one architecture; 0 where no public figure gives it.
struct ArchitectureRates {
  int computeMajor = 0;
  int computeMinor = 0;
  std::string_view name;
  std::array<double, 4> flopsPerClockPerSm{};  // by Precision
  double l1BytesPerClockPerSm = 0;
  double l2BytesPerClockPerSm = 0;
};

// The rates for compute capability MAJOR.MINOR; nullptr for an architecture the table lacks.
const ArchitectureRates* architectureRates(int computeMajor, int computeMinor);

struct DeviceRoofs {
  uint32_t deviceId = 0;
  std::string deviceName;
  std::string architecture;           // e.g. "Hopper (sm_90)"; empty when unknown
  std::array<double, 4> peakFlops{};  // FLOP/s by Precision; 0 when unknown
  std::array<double, 3> bandwidth{};  // bytes/s by MemoryLevel; 0 when unknown

  double peak(Precision p) const { return peakFlops[static_cast<size_t>(p)]; }
  double bandwidthOf(MemoryLevel l) const { return bandwidth[static_cast<size_t>(l)]; }
};

// peak = rate per clock per SM x smCount x clockRate; DRAM bandwidth = memoryBandwidth as the file gives it;
// L2 and L1 = bytes per clock per SM x smCount x clockRate.
DeviceRoofs deviceRoofs(const DeviceInfo& device);

}  // namespace gpuscope
