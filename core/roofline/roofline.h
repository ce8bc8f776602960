#pragma once
// The roofline maths: kernels with metrics grouped into points (instances, kernels by name, NVTX ranges),
// and each point's arithmetic intensity, achieved FLOP/s, attainable bound and limiting roof.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/time_math.h"
#include "core/roofline/device_roofs.h"
#include "core/roofline/kernel_metrics.h"
#include "core/stats/nvtx_ranges.h"  // complete type: clang rejects a {} default of an incomplete one

namespace gpuscope {

class Database;

// A kernel launch of the trace that has a GPUSCOPE_KERNEL_METRICS row.
struct RooflineKernel {
  KernelMetrics metrics;
  std::string name;  // the trace's demangled name
  uint32_t deviceId = 0;
  int64_t start = 0;  // on the GPU
  int64_t end = 0;
  bool hasLaunch = false;  // the launching API call was found
  int64_t launchGlobalTid = 0;
  int64_t launchStart = 0;
  int64_t launchEnd = 0;

  // ncu's measured duration when it has one, else the trace's (end - start).
  int64_t durationNs() const { return metrics.durationNs.value_or(spanNs(start, end)); }
};

// Every kernel of the file with metrics, by GPU start. Empty when the file has no metrics table.
std::vector<RooflineKernel> loadRooflineKernels(const Database& db);

enum class RooflineGrouping { Instance, Name, Nvtx };
std::string_view groupingName(RooflineGrouping grouping);  // "instance", "name", "nvtx"

// One point of the chart: one kernel, or the sums over a group of kernels.
struct RooflinePoint {
  std::string label;  // kernel name or NVTX range name
  uint32_t deviceId = 0;
  size_t instances = 0;  // kernels summed
  int64_t durationNs = 0;
  std::array<std::optional<double>, 4> flops;  // by Precision; present when any kernel had the counters
  std::array<std::optional<double>, 3> bytes;  // by MemoryLevel
  int64_t globalPid = 0;                       // Instance points: the kernel's key (and the first kernel's otherwise)
  uint32_t correlationId = 0;
  int64_t firstStart = 0;  // the earliest kernel's GPU start

  double totalFlops() const;  // over present precisions
  const std::optional<double>& flopsOf(Precision p) const { return flops[static_cast<size_t>(p)]; }
  const std::optional<double>& bytesOf(MemoryLevel l) const { return bytes[static_cast<size_t>(l)]; }
};

// Points for KERNELS. Instance: one per kernel, in GPU start order. Name: one per (device, kernel name),
// by total time, longest first. Nvtx: one per (device, range name), summing each kernel whose launching API
// call lies inside a range of that name opened on the launching thread (a kernel counts once per name even
// under nested ranges of the same name; kernels outside every range are left out), by total time.
std::vector<RooflinePoint> rooflinePoints(const std::vector<RooflineKernel>& kernels, RooflineGrouping grouping,
                                          const std::vector<NvtxRange>& ranges = {});

// Where a point sits under the roofs of its device.
struct RooflineAssessment {
  Precision precision = Precision::Fp32;  // the roof compared against: the precision with the most FLOPs
  double flops = 0;                       // all precisions together
  double achievedFlopsPerSecond = 0;
  std::array<std::optional<double>, 3> intensity;   // FLOP per byte by MemoryLevel; absent without bytes
  std::array<std::optional<double>, 3> attainable;  // min(peak, intensity x bandwidth) by level, where known
  std::optional<double> attainableFlopsPerSecond;   // the lowest of the levels' (or the peak alone)
  std::string limiter;  // "DRAM", "L2", "L1" (a bandwidth roof) or "FP32 peak" etc.; empty with no roof
  std::optional<double> shareOfAttainable;  // achieved / attainable, absent when attainable is 0 or unknown

  const std::optional<double>& intensityOf(MemoryLevel l) const { return intensity[static_cast<size_t>(l)]; }
};

RooflineAssessment assessPoint(const RooflinePoint& point, const DeviceRoofs& roofs);

}  // namespace gpuscope
