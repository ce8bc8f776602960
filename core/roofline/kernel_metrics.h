#pragma once
// KernelMetrics: one kernel launch's roofline counters (FLOPs per precision, bytes per memory level), the row
// that every producer (an imported ncu report, CUPTI counters recorded by `gpuscope record`) writes alike.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuscope {

// Floating-point precisions with their own compute roof.
enum class Precision : uint8_t { Fp64, Fp32, Fp16, Tensor };
inline constexpr std::array<Precision, 4> kPrecisions = {Precision::Fp64, Precision::Fp32, Precision::Fp16,
                                                         Precision::Tensor};
std::string_view precisionName(Precision precision);  // "FP64", "FP32", "FP16", "Tensor"

// Memory levels with their own bandwidth roof.
enum class MemoryLevel : uint8_t { Dram, L2, L1 };
inline constexpr std::array<MemoryLevel, 3> kMemoryLevels = {MemoryLevel::Dram, MemoryLevel::L2, MemoryLevel::L1};
std::string_view memoryLevelName(MemoryLevel level);  // "DRAM", "L2", "L1"

// One kernel launch's counters; a value is absent when its counters were not collected.
struct KernelMetrics {
  int64_t globalPid = 0;
  uint32_t correlationId = 0;
  std::string kernelName;  // as the metric source named it
  int64_t sourceId = -1;   // the launch's id in the source (ncu's "ID")
  std::optional<int64_t> durationNs;
  std::array<std::optional<double>, 4> flops;  // by Precision
  std::array<std::optional<double>, 3> bytes;  // by MemoryLevel
  std::string source;                          // where the values came from, e.g. "ncu --csv run_ncu.csv"

  std::optional<double>& flopsOf(Precision p) { return flops[static_cast<size_t>(p)]; }
  const std::optional<double>& flopsOf(Precision p) const { return flops[static_cast<size_t>(p)]; }
  std::optional<double>& bytesOf(MemoryLevel l) { return bytes[static_cast<size_t>(l)]; }
  const std::optional<double>& bytesOf(MemoryLevel l) const { return bytes[static_cast<size_t>(l)]; }
};

}  // namespace gpuscope
