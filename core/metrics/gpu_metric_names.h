#pragma once
// The one home of GPU hardware metric names: nsys's spellings, as TARGET_INFO_GPU_METRICS.metricName holds them
// for an H100/H200 (--gpu-metrics-set for GH100), which the recorder writes too, so nsys's own tools read our
// files. A name is "<label> [<unit>]"; the unit says how GPU_METRICS.value reads.
#include <cstdint>
#include <span>
#include <string_view>

namespace gpuscope::gpu_metric {

// Clocks. nsys labels them [MHz] but stores Hz in GPU_METRICS.value (840001250 for 840 MHz).
inline constexpr std::string_view kGpcClock = "GPC Clock Frequency [MHz]";
inline constexpr std::string_view kSysClock = "SYS Clock Frequency [MHz]";
// Throughputs: integer percent of the unit's peak over the sample's interval.
inline constexpr std::string_view kGrActive = "GR Active [Throughput %]";
inline constexpr std::string_view kSmsActive = "SMs Active [Throughput %]";
inline constexpr std::string_view kSmIssue = "SM Issue [Throughput %]";
inline constexpr std::string_view kTensorActive = "Tensor Active [Throughput %]";
inline constexpr std::string_view kComputeWarpsInFlight = "Compute Warps in Flight [Throughput %]";
inline constexpr std::string_view kComputeWarpsAvg = "Compute Warps in Flight [Avg]";
inline constexpr std::string_view kComputeWarpsPerCycle = "Compute Warps in Flight [Avg Warps per Cycle]";
inline constexpr std::string_view kUnallocatedWarps = "Unallocated Warps in Active SMs [Throughput %]";
inline constexpr std::string_view kUnallocatedWarpsAvg = "Unallocated Warps in Active SMs [Avg]";
inline constexpr std::string_view kUnallocatedWarpsPerCycle = "Unallocated Warps in Active SMs [Avg Warps per Cycle]";
inline constexpr std::string_view kDramRead = "DRAM Read Bandwidth [Throughput %]";
inline constexpr std::string_view kDramWrite = "DRAM Write Bandwidth [Throughput %]";
inline constexpr std::string_view kPcieRx = "PCIe RX Throughput [Throughput %]";
inline constexpr std::string_view kPcieTx = "PCIe TX Throughput [Throughput %]";
inline constexpr std::string_view kNvlinkRx = "NVLink RX Throughput [Throughput %]";
inline constexpr std::string_view kNvlinkTx = "NVLink TX Throughput [Throughput %]";

// The metrics a kernel's details and the kernel table show, averaged over the kernel, in this order.
inline constexpr std::string_view kPerKernel[] = {kSmsActive, kSmIssue, kTensorActive, kDramRead, kDramWrite};

// The metrics the timeline draws first under a GPU, in this order; the others follow in the file's order.
inline constexpr std::string_view kTimelineOrder[] = {
    kGrActive, kSmsActive, kSmIssue,  kTensorActive, kDramRead, kDramWrite, kComputeWarpsInFlight,
    kPcieRx,   kPcieTx,    kNvlinkRx, kNvlinkTx,     kGpcClock, kSysClock};

// "SMs Active" of "SMs Active [Throughput %]": the name without its unit.
constexpr std::string_view labelOf(std::string_view name) {
  size_t bracket = name.rfind(" [");
  return bracket == std::string_view::npos ? name : name.substr(0, bracket);
}
// "Throughput %" of "SMs Active [Throughput %]"; "" when the name has no unit.
constexpr std::string_view unitOf(std::string_view name) {
  size_t bracket = name.rfind(" [");
  if (bracket == std::string_view::npos || name.back() != ']') return {};
  return name.substr(bracket + 2, name.size() - bracket - 3);
}
constexpr bool isPercent(std::string_view name) { return unitOf(name) == "Throughput %"; }
constexpr bool isClock(std::string_view name) { return unitOf(name) == "MHz"; }
// A stored value in the unit of its name: clocks from Hz to MHz; the others as stored.
constexpr double displayValue(std::string_view name, double stored) { return isClock(name) ? stored / 1e6 : stored; }

// GPU_METRICS.typeId's device: its low byte (nsys lays typeId out as a global id).
constexpr int deviceOfType(int64_t typeId) { return static_cast<int>(typeId & 0xFF); }

}  // namespace gpuscope::gpu_metric
