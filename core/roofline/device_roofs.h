#pragma once
// DeviceRoofs: a GPU's compute peaks per precision and bandwidth per memory level, from TARGET_INFO_GPU and
// a table of per-SM, per-clock rates by architecture, or measured on the GPU itself (gpuscope peaks).
#include <array>
#include <string>
#include <string_view>

#include "core/model/trace.h"
#include "core/roofline/kernel_metrics.h"

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

// Where a roof's value came from: the charts and tables say so, since a measured roof is what the code can
// reach and a theoretical one what the datasheet promises.
enum class RoofSource : uint8_t { Unknown, Theoretical, Measured };
std::string_view roofSourceName(RoofSource source);  // "", "theoretical", "measured"

struct DeviceRoofs {
  uint32_t deviceId = 0;
  std::string deviceName;
  std::string architecture;                     // e.g. "Hopper (sm_90)"; empty when unknown
  std::array<double, 4> peakFlops{};            // FLOP/s by Precision; 0 when unknown
  std::array<double, 3> bandwidth{};            // bytes/s by MemoryLevel; 0 when unknown
  std::array<RoofSource, 4> peakSource{};       // by Precision
  std::array<RoofSource, 3> bandwidthSource{};  // by MemoryLevel
  // Why roofs are missing, when the file lacks what they are computed from ("the file does not give the GPU's
  // clock rate or memory bandwidth"); empty when every input is there (a roof may still be unknown because its
  // figure is not published, as Hopper's L2).
  std::string unknownBecause;

  double peak(Precision p) const { return peakFlops[static_cast<size_t>(p)]; }
  double bandwidthOf(MemoryLevel l) const { return bandwidth[static_cast<size_t>(l)]; }
  RoofSource sourceOf(Precision p) const { return peakSource[static_cast<size_t>(p)]; }
  RoofSource sourceOf(MemoryLevel l) const { return bandwidthSource[static_cast<size_t>(l)]; }
  // One line for tables: "theoretical", "measured", or "measured: DRAM, FP32; theoretical: Tensor, ...", then
  // "; unknown: " and unknownBecause where inputs are missing; "none: " and unknownBecause when no roof is known.
  std::string sourceSummary() const;
};

// peak = rate per clock per SM x smCount x clockRate; DRAM bandwidth = memoryBandwidth as the file gives it;
// L2 and L1 = bytes per clock per SM x smCount x clockRate. Every known roof is Theoretical.
DeviceRoofs deviceRoofs(const DeviceInfo& device);

}  // namespace gpuscope
