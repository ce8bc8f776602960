#include "core/roofline/roofline_report.h"

#include <cmath>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/target_info.h"
#include "core/roofline/device_peaks.h"
#include "core/roofline/kernel_metrics_table.h"
#include "core/schema/trace_schema.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {
namespace {

ReportCell count(const std::optional<double>& value) {
  return optionalCell(value.has_value(), value ? static_cast<int64_t>(std::llround(*value)) : int64_t{0});
}

ReportCell real(const std::optional<double>& value) { return optionalCell(value.has_value(), value.value_or(0.0)); }

ReportCell scaled(const std::optional<double>& value, double factor) {
  return optionalCell(value.has_value(), value.value_or(0.0) * factor);
}

}  // namespace

DeviceRoofs RooflineData::roofsOf(uint32_t deviceId) const {
  for (const auto& device : roofs)
    if (device.deviceId == deviceId) return device;
  DeviceRoofs none;
  none.deviceId = deviceId;
  return none;
}

RooflineData loadRoofline(const Database& db, RooflineGrouping grouping) {
  if (!db.hasTable(kKernelMetricsTable))
    throw TraceError(db.path() + " has no kernel metrics: attach an ncu report first with `gpuscope import-ncu " +
                     db.path() + " REPORT.csv -o OUT.sqlite`.");
  RooflineData data;
  auto measured = readDevicePeaks(db);
  for (const auto& device : readDevices(db)) {
    data.roofs.push_back(deviceRoofs(device));
    applyMeasuredPeaks(data.roofs.back(), measured);
  }
  auto kernels = loadRooflineKernels(db);
  data.kernelsWithMetrics = kernels.size();
  std::vector<NvtxRange> ranges;
  if (grouping == RooflineGrouping::Nvtx) {
    if (!db.hasTable(table::kNvtx))
      throw TraceError(db.path() +
                       " has no NVTX_EVENTS table, so there are no ranges to group by: was NVTX "
                       "tracing on?");
    ranges = loadNvtxRanges(db);
  }
  data.points = rooflinePoints(kernels, grouping, ranges);
  return data;
}

ReportTable rooflineRoofsTable(const std::vector<DeviceRoofs>& roofs) {
  ReportTable table;
  table.name = "roofline_roofs";
  table.title = "Roofs";
  table.columns = {{"Device", 0},
                   {"Name", 0},
                   {"Architecture", 0},
                   {"FP64 Peak (GFLOP/s)", 1},
                   {"FP32 Peak (GFLOP/s)", 1},
                   {"FP16 Peak (GFLOP/s)", 1},
                   {"Tensor Peak (GFLOP/s)", 1},
                   {"DRAM (GB/s)", 1},
                   {"L2 (GB/s)", 1},
                   {"L1 (GB/s)", 1},
                   {"Source", 0}};
  for (const auto& device : roofs) {
    std::vector<ReportCell> row(table.columns.size());  // final width: see rooflinePointsTable
    size_t cell = 0;
    auto put = [&](ReportCell value) { row.at(cell++) = std::move(value); };
    put(int64_t{device.deviceId});
    put(device.deviceName);
    put(device.architecture);
    for (auto precision : kPrecisions) put(gigaCell(device.peak(precision)));
    for (auto level : kMemoryLevels) put(gigaCell(device.bandwidthOf(level)));
    put(device.sourceSummary());
    table.rows.push_back(std::move(row));
  }
  return table;
}

ReportTable rooflinePointsTable(const RooflineData& data, RooflineGrouping grouping) {
  ReportTable table;
  table.name = "roofline_" + std::string(groupingName(grouping));
  table.title = grouping == RooflineGrouping::Instance ? "Roofline: kernel instances"
                : grouping == RooflineGrouping::Name   ? "Roofline: kernels by name"
                                                       : "Roofline: NVTX ranges";
  table.columns = {{grouping == RooflineGrouping::Nvtx ? "Range" : "Kernel", 0},
                   {"Device", 0},
                   {grouping == RooflineGrouping::Instance ? "CorrId" : "Kernels", 0},
                   {"Time (ns)", 0}};
  for (auto precision : kPrecisions) table.columns.push_back({std::string(precisionName(precision)) + " FLOPs", 0});
  for (auto level : kMemoryLevels) table.columns.push_back({std::string(memoryLevelName(level)) + " Bytes", 0});
  table.columns.push_back({"Achieved (GFLOP/s)", 3});
  for (auto level : kMemoryLevels)
    table.columns.push_back({"AI " + std::string(memoryLevelName(level)) + " (FLOP/B)", 4});
  table.columns.push_back({"Roof", 0});
  table.columns.push_back({"Attainable (GFLOP/s)", 3});
  table.columns.push_back({"Bound", 0});
  table.columns.push_back({"Of Attainable (%)", 2});
  for (const auto& point : data.points) {
    auto assessment = assessPoint(point, data.roofsOf(point.deviceId));
    // Cells are assigned into a row of the final width: growing a vector of variants trips a false
    // maybe-uninitialized warning in GCC 12's reallocation path.
    std::vector<ReportCell> row(table.columns.size());
    size_t cell = 0;
    auto put = [&](ReportCell value) { row.at(cell++) = std::move(value); };
    put(point.label);
    put(int64_t{point.deviceId});
    put(grouping == RooflineGrouping::Instance ? int64_t{point.correlationId} : static_cast<int64_t>(point.instances));
    put(point.durationNs);
    for (auto precision : kPrecisions) put(count(point.flopsOf(precision)));
    for (auto level : kMemoryLevels) put(count(point.bytesOf(level)));
    put(assessment.achievedFlopsPerSecond / 1e9);
    for (auto level : kMemoryLevels) put(real(assessment.intensityOf(level)));
    put(std::string(precisionName(assessment.precision)));
    put(scaled(assessment.attainableFlopsPerSecond, 1e-9));
    put(assessment.limiter);
    put(scaled(assessment.shareOfAttainable, 100.0));
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace gpuscope
