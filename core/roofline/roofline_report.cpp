#include "core/roofline/roofline_report.h"

#include <cmath>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/target_info.h"
#include "core/schema/trace_schema.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {
namespace {

ReportCell giga(double value) { return value > 0 ? ReportCell{value / 1e9} : ReportCell{}; }

ReportCell count(const std::optional<double>& value) {
  return value ? ReportCell{static_cast<int64_t>(std::llround(*value))} : ReportCell{};
}

ReportCell real(const std::optional<double>& value) { return value ? ReportCell{*value} : ReportCell{}; }

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
  for (const auto& device : readDevices(db)) data.roofs.push_back(deviceRoofs(device));
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
                   {"L1 (GB/s)", 1}};
  for (const auto& device : roofs) {
    std::vector<ReportCell> row = {int64_t{device.deviceId}, device.deviceName, device.architecture};
    for (auto precision : kPrecisions) row.push_back(giga(device.peak(precision)));
    for (auto level : kMemoryLevels) row.push_back(giga(device.bandwidthOf(level)));
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
    std::vector<ReportCell> row = {
        point.label, int64_t{point.deviceId},
        grouping == RooflineGrouping::Instance ? int64_t{point.correlationId} : static_cast<int64_t>(point.instances),
        point.durationNs};
    for (auto precision : kPrecisions) row.push_back(count(point.flopsOf(precision)));
    for (auto level : kMemoryLevels) row.push_back(count(point.bytesOf(level)));
    row.push_back(assessment.achievedFlopsPerSecond / 1e9);
    for (auto level : kMemoryLevels) row.push_back(real(assessment.intensityOf(level)));
    row.push_back(std::string(precisionName(assessment.precision)));
    row.push_back(assessment.attainableFlopsPerSecond ? ReportCell{*assessment.attainableFlopsPerSecond / 1e9}
                                                      : ReportCell{});
    row.push_back(assessment.limiter);
    row.push_back(assessment.shareOfAttainable ? ReportCell{*assessment.shareOfAttainable * 100} : ReportCell{});
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace gpuscope
