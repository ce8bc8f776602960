#include "core/roofline/roofline.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/model/time_math.h"
#include "core/roofline/kernel_metrics_table.h"
#include "core/schema/trace_schema.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {
namespace {

uint64_t launchKey(int64_t globalPid, uint32_t correlationId) {
  return uint64_t{global_id::pid(globalPid)} << 32 | correlationId;
}

void addTo(std::optional<double>& sum, const std::optional<double>& value) {
  if (value) sum = sum.value_or(0) + *value;
}

void addKernel(RooflinePoint& point, const RooflineKernel& kernel) {
  if (point.instances == 0 || kernel.start < point.firstStart) {
    point.firstStart = kernel.start;
    point.globalPid = kernel.metrics.globalPid;
    point.correlationId = kernel.metrics.correlationId;
  }
  ++point.instances;
  point.durationNs = saturatingAdd(point.durationNs, kernel.durationNs());
  for (size_t p = 0; p < point.flops.size(); ++p) addTo(point.flops[p], kernel.metrics.flops[p]);
  for (size_t l = 0; l < point.bytes.size(); ++l) addTo(point.bytes[l], kernel.metrics.bytes[l]);
}

std::vector<RooflinePoint> byTotalTime(std::map<std::pair<uint32_t, std::string>, RooflinePoint>& groups) {
  std::vector<RooflinePoint> points;
  for (auto& [key, point] : groups) points.push_back(std::move(point));
  std::stable_sort(points.begin(), points.end(),
                   [](const auto& a, const auto& b) { return a.durationNs > b.durationNs; });
  return points;
}

}  // namespace

std::vector<RooflineKernel> loadRooflineKernels(const Database& db) {
  std::vector<RooflineKernel> kernels;
  auto metrics = readKernelMetrics(db);
  if (metrics.empty() || !db.hasTable(table::kKernel)) return kernels;
  std::unordered_map<uint64_t, size_t> byKey;
  for (size_t i = 0; i < metrics.size(); ++i)
    byKey.emplace(launchKey(metrics[i].globalPid, metrics[i].correlationId), i);
  bool hasPid = hasColumn(db, table::kKernel, "globalPid");
  auto stmt = db.prepare(std::string("SELECT ") + (hasPid ? "k.globalPid" : "0") +
                         ", k.correlationId, k.start, k.end, k.deviceId, coalesce(d.value, '') "
                         "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS d ON d.id = k.demangledName "
                         "WHERE k.correlationId IS NOT NULL");
  while (stmt.step()) {
    int64_t globalPid = stmt.isNull(0) ? 0 : stmt.int64(0);
    auto it = byKey.find(launchKey(globalPid, static_cast<uint32_t>(stmt.int64(1))));
    if (it == byKey.end()) continue;
    RooflineKernel kernel;
    kernel.metrics = metrics[it->second];
    kernel.start = stmt.int64(2);
    kernel.end = stmt.int64(3);
    kernel.deviceId = static_cast<uint32_t>(stmt.int64(4));
    kernel.name = std::string(stmt.text(5));
    kernels.push_back(std::move(kernel));
  }
  if (db.hasTable(table::kRuntime)) {
    std::unordered_map<uint64_t, size_t> kernelByKey;
    for (size_t i = 0; i < kernels.size(); ++i)
      kernelByKey.emplace(launchKey(kernels[i].metrics.globalPid, kernels[i].metrics.correlationId), i);
    auto api = db.prepare(
        "SELECT globalTid, correlationId, start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME "
        "WHERE correlationId IS NOT NULL AND globalTid IS NOT NULL");
    while (api.step()) {
      auto it = kernelByKey.find(launchKey(api.int64(0), static_cast<uint32_t>(api.int64(1))));
      if (it == kernelByKey.end()) continue;
      auto& kernel = kernels[it->second];
      kernel.hasLaunch = true;
      kernel.launchGlobalTid = api.int64(0);
      kernel.launchStart = api.int64(2);
      kernel.launchEnd = api.int64(3);
    }
  }
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  return kernels;
}

std::string_view groupingName(RooflineGrouping grouping) {
  switch (grouping) {
    case RooflineGrouping::Instance:
      return "instance";
    case RooflineGrouping::Name:
      return "name";
    case RooflineGrouping::Nvtx:
      return "nvtx";
  }
  return "?";
}

double RooflinePoint::totalFlops() const {
  double total = 0;
  for (const auto& value : flops) total += value.value_or(0);
  return total;
}

std::vector<RooflinePoint> rooflinePoints(const std::vector<RooflineKernel>& kernels, RooflineGrouping grouping,
                                          const std::vector<NvtxRange>& ranges) {
  if (grouping == RooflineGrouping::Instance) {
    std::vector<RooflinePoint> points;
    for (const auto& kernel : kernels) {
      RooflinePoint point;
      point.label = kernel.name;
      point.deviceId = kernel.deviceId;
      addKernel(point, kernel);
      points.push_back(std::move(point));
    }
    return points;
  }
  std::map<std::pair<uint32_t, std::string>, RooflinePoint> groups;
  auto add = [&groups](const std::string& label, const RooflineKernel& kernel) {
    auto& point = groups[{kernel.deviceId, label}];
    point.label = label;
    point.deviceId = kernel.deviceId;
    addKernel(point, kernel);
  };
  if (grouping == RooflineGrouping::Name) {
    for (const auto& kernel : kernels) add(kernel.name, kernel);
    return byTotalTime(groups);
  }
  std::vector<ThreadSpan> spans;
  std::vector<size_t> kernelOfSpan;
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!kernels[i].hasLaunch) continue;
    spans.push_back({kernels[i].launchGlobalTid, kernels[i].launchStart, kernels[i].launchEnd});
    kernelOfSpan.push_back(i);
  }
  auto enclosing = enclosingRanges(ranges, spans);
  for (size_t s = 0; s < spans.size(); ++s) {
    std::set<std::string_view> names;
    for (uint32_t r : enclosing[s])
      if (names.insert(ranges[r].name).second) add(ranges[r].name, kernels[kernelOfSpan[s]]);
  }
  return byTotalTime(groups);
}

RooflineAssessment assessPoint(const RooflinePoint& point, const DeviceRoofs& roofs) {
  RooflineAssessment result;
  result.flops = point.totalFlops();
  // The precision with the most FLOPs; FP32 when there are none.
  double most = 0;
  for (auto precision : kPrecisions) {
    double value = point.flopsOf(precision).value_or(0);
    if (value > most) {
      most = value;
      result.precision = precision;
    }
  }
  if (point.durationNs > 0)
    result.achievedFlopsPerSecond = result.flops / (static_cast<double>(point.durationNs) * 1e-9);
  double peak = roofs.peak(result.precision);
  std::optional<double> lowest;
  for (auto level : kMemoryLevels) {
    size_t l = static_cast<size_t>(level);
    const auto& bytes = point.bytesOf(level);
    if (!bytes) continue;
    bool infinite = *bytes <= 0;  // no traffic at this level: never bound by it
    if (!infinite) result.intensity[l] = result.flops / *bytes;
    double bandwidth = roofs.bandwidthOf(level);
    if (bandwidth <= 0 || infinite) continue;
    double memoryBound = *result.intensity[l] * bandwidth;
    result.attainable[l] = peak > 0 ? std::min(peak, memoryBound) : memoryBound;
    if (!lowest || *result.attainable[l] < *lowest) {
      lowest = result.attainable[l];
      result.limiter = peak > 0 && peak <= memoryBound ? std::string(precisionName(result.precision)) + " peak"
                                                       : std::string(memoryLevelName(level));
    }
  }
  if (!lowest && peak > 0) {
    lowest = peak;
    result.limiter = std::string(precisionName(result.precision)) + " peak";
  }
  result.attainableFlopsPerSecond = lowest;
  if (lowest && *lowest > 0) result.shareOfAttainable = result.achievedFlopsPerSecond / *lowest;
  return result;
}

}  // namespace gpuscope
