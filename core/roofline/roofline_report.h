#pragma once
// The roofline of a trace file as report tables: the devices' roofs and one row per point, for
// `gpuscope roofline` (table, CSV, JSON) and for anything else that lists the points.
#include <vector>

#include "core/report/report_table.h"
#include "core/roofline/roofline.h"

namespace gpuscope {

class Database;

struct RooflineData {
  std::vector<DeviceRoofs> roofs;  // one per device of TARGET_INFO_GPU
  std::vector<RooflinePoint> points;
  size_t kernelsWithMetrics = 0;

  // The roofs of a device; a roof-less entry for a device the file does not describe.
  DeviceRoofs roofsOf(uint32_t deviceId) const;
};

// Reads the metrics, kernels, devices (roofs measured by `gpuscope peaks --store` preferred over theoretical
// ones) and (for Nvtx) NVTX ranges of the file. Throws TraceError when the file has no
// GPUSCOPE_KERNEL_METRICS table ("import ncu metrics first"), or grouping by NVTX without NVTX.
RooflineData loadRoofline(const Database& db, RooflineGrouping grouping);

// "roofline_roofs": Device, Name, Architecture, peaks in GFLOP/s, bandwidths in GB/s (empty when unknown),
// and Source: which roofs were measured on the GPU (GPUSCOPE_DEVICE_PEAKS) and which are theoretical.
ReportTable rooflineRoofsTable(const std::vector<DeviceRoofs>& roofs);

// "roofline_<grouping>": per point its counts, FLOPs per precision, bytes per level, achieved GFLOP/s,
// intensity per level, the roof compared against, attainable GFLOP/s, the bound and the share of it.
ReportTable rooflinePointsTable(const RooflineData& data, RooflineGrouping grouping);

}  // namespace gpuscope
