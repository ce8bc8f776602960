#pragma once
// RooflineChart: what a roofline chart of one trace needs, read once by loadRooflineChart: the kernels with
// metrics, the NVTX ranges to group them by, each device's roofs (measured ones preferred, theoretical ones as
// the fallback), where each kernel sits in the trace, and sentences about what could not be read. The viewer's
// roofline tab, its details panel and its compare view all ask this one function.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/trace.h"
#include "core/roofline/roofline.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {

struct RooflineChart {
  std::vector<RooflineKernel> kernels;               // by GPU start; empty when the trace has no metrics
  std::vector<std::optional<EventRef>> events;       // by kernels index: the kernel's event in the trace
  std::vector<NvtxRange> ranges;                     // empty when the trace has no NVTX
  std::vector<DeviceRoofs> roofsByDevice;            // one per device some kernel with metrics ran on
  std::string metricsError;                          // why the metrics table could not be read, if it could not
  std::vector<std::string> warnings;                 // fallbacks taken, each one sentence
  std::unordered_map<uint64_t, size_t> kernelByKey;  // process << 32 | correlationId -> kernels index

  bool hasMetrics() const { return !kernels.empty(); }
  // The roofs of DEVICE_ID; a roof-less entry for a device the trace does not describe.
  DeviceRoofs roofsOf(uint32_t deviceId) const;
  // The roofs of the first kernel's device: the ones a one-device chart draws.
  DeviceRoofs roofs() const;
  std::vector<RooflinePoint> points(RooflineGrouping grouping) const;
  // The kernel launched by (the process of GLOBAL_ID, CORRELATION_ID); GLOBAL_ID may be a globalPid or any
  // globalTid of the process. nullptr when no kernel with metrics has that key.
  const RooflineKernel* kernelOf(int64_t globalId, uint32_t correlationId) const;
  // The event of a point's kernel (its first kernel for a group), where the trace has it.
  std::optional<EventRef> eventOf(const RooflinePoint& point) const;
};

// The roofs a one-device chart of TRACE draws: those of CHART (TRACE's chart) when it has metrics, else those
// of the trace's first GPU, so that a run without metrics still names its GPU; roof-less when the trace
// describes no GPU. Never throws: unreadable measured peaks give the theoretical roofs.
DeviceRoofs chartRoofs(const Trace& trace, const RooflineChart& chart);

// Reads the chart of TRACE. Never throws for what the file holds: an unreadable metrics table gives no
// kernels and metricsError, unreadable measured peaks give the theoretical roofs and a warning, unreadable
// NVTX gives no ranges and a warning.
RooflineChart loadRooflineChart(const Trace& trace);

}  // namespace gpuscope
