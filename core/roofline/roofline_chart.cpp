#include "core/roofline/roofline_chart.h"

#include <algorithm>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/roofline/device_peaks.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

uint64_t kernelKey(int64_t globalId, uint32_t correlationId) {
  return uint64_t{global_id::pid(globalId)} << 32 | correlationId;
}

// Where each kernel with metrics sits among the trace's kernel tracks.
std::vector<std::optional<EventRef>> kernelEvents(const Trace& trace, const RooflineChart& chart) {
  std::vector<std::optional<EventRef>> events(chart.kernels.size());
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (tracks[t].kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const auto& lane = tracks[t].lanes[l];
      for (uint32_t i = 0; i < lane.size(); ++i) {
        auto it = chart.kernelByKey.find(kernelKey(tracks[t].globalTid, lane.correlation[i]));
        if (it != chart.kernelByKey.end()) events[it->second] = EventRef{t, l, i};
      }
    }
  }
  return events;
}

// Each device's roofs; the theoretical ones when the measured peaks cannot be read.
void loadRoofs(const Trace& trace, RooflineChart& chart) {
  std::vector<uint32_t> deviceIds;
  for (const auto& kernel : chart.kernels)
    if (std::find(deviceIds.begin(), deviceIds.end(), kernel.deviceId) == deviceIds.end())
      deviceIds.push_back(kernel.deviceId);
  bool warned = false;
  for (uint32_t deviceId : deviceIds) {
    DeviceRoofs roofs;
    if (const auto* device = trace.device(deviceId)) {
      try {
        roofs = measuredOrTheoreticalRoofs(trace.database(), *device);
      } catch (const TraceError& error) {
        roofs = deviceRoofs(*device);
        if (!warned)
          chart.warnings.push_back(std::string("The measured peaks cannot be read (") + error.what() +
                                   "), so the roofs are theoretical.");
        warned = true;
      }
    }
    roofs.deviceId = deviceId;
    chart.roofsByDevice.push_back(std::move(roofs));
  }
}

}  // namespace

DeviceRoofs RooflineChart::roofsOf(uint32_t deviceId) const {
  for (const auto& device : roofsByDevice)
    if (device.deviceId == deviceId) return device;
  DeviceRoofs none;
  none.deviceId = deviceId;
  return none;
}

DeviceRoofs RooflineChart::roofs() const { return kernels.empty() ? DeviceRoofs{} : roofsOf(kernels.front().deviceId); }

std::vector<RooflinePoint> RooflineChart::points(RooflineGrouping grouping) const {
  return kernels.empty() ? std::vector<RooflinePoint>{} : rooflinePoints(kernels, grouping, ranges);
}

const RooflineKernel* RooflineChart::kernelOf(int64_t globalId, uint32_t correlationId) const {
  auto it = kernelByKey.find(kernelKey(globalId, correlationId));
  return it == kernelByKey.end() ? nullptr : &kernels[it->second];
}

std::optional<EventRef> RooflineChart::eventOf(const RooflinePoint& point) const {
  auto it = kernelByKey.find(kernelKey(point.globalPid, point.correlationId));
  return it == kernelByKey.end() ? std::nullopt : events[it->second];
}

DeviceRoofs chartRoofs(const Trace& trace, const RooflineChart& chart) {
  if (chart.hasMetrics() || trace.devices().empty()) return chart.roofs();
  const DeviceInfo& device = trace.devices().front();
  try {
    return measuredOrTheoreticalRoofs(trace.database(), device);
  } catch (const TraceError&) {
    return deviceRoofs(device);
  }
}

RooflineChart loadRooflineChart(const Trace& trace) {
  RooflineChart chart;
  const auto& db = trace.database();
  try {
    chart.kernels = loadRooflineKernels(db);
  } catch (const TraceError& error) {
    chart.metricsError = error.what();
  }
  if (chart.kernels.empty()) return chart;
  for (size_t i = 0; i < chart.kernels.size(); ++i)
    chart.kernelByKey.emplace(kernelKey(chart.kernels[i].metrics.globalPid, chart.kernels[i].metrics.correlationId), i);
  chart.events = kernelEvents(trace, chart);
  loadRoofs(trace, chart);
  if (db.hasTable(table::kNvtx)) {
    try {
      chart.ranges = loadNvtxRanges(db);
    } catch (const TraceError& error) {
      chart.warnings.push_back(std::string("The NVTX ranges cannot be read (") + error.what() +
                               "), so there are no NVTX points.");
    }
  }
  return chart;
}

}  // namespace gpuscope
