#include "core/recipe/gpu_time_util.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

enum Sum { kFirstStart, kLastEnd, kBusy, kKernels };

int64_t span(const RecipeGroup& device) { return saturatingSub(device.sums[kLastEnd], device.sums[kFirstStart]); }

// The device id of a group from a part, or nothing for a group that is not one of this recipe's.
std::optional<int64_t> deviceOf(const RecipeGroup& group) {
  if (group.labels.size() != 1 || group.sums.size() != 4) return std::nullopt;
  const std::string& text = group.labels.front();
  int64_t id = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return id;
}

}  // namespace

std::vector<RecipeGroup> gpuTimeUtilGroups(const Database& db) {
  requireReportTable(db, table::kKernel);
  auto stmt = db.prepare("SELECT " + columnOr(db, table::kKernel, "deviceId", "0") +
                         " AS device, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY device, start");
  std::vector<RecipeGroup> groups;
  int64_t device = 0, coveredTo = 0;
  while (stmt.step()) {
    int64_t start = stmt.int64(1), end = std::max(start, stmt.int64(2));
    if (groups.empty() || stmt.int64(0) != device) {
      device = stmt.int64(0);
      groups.push_back({{std::to_string(device)}, {}, {start, end, 0, 0}});
      coveredTo = start;
    }
    auto& sums = groups.back().sums;
    sums[kLastEnd] = std::max(sums[kLastEnd], end);
    if (end > coveredTo) {
      sums[kBusy] = saturatingAdd(sums[kBusy], saturatingSub(end, std::max(start, coveredTo)));
      coveredTo = end;
    }
    ++sums[kKernels];
  }
  return groups;
}

ReportTable gpuTimeUtilRankTable(const std::vector<RecipePart>& parts) {
  ReportTable table{"gpu_time_util", "GPU Time Utilization by Rank", {}, {}};
  for (const char* title : {"Rank", "Device ID", "Start (ns)", "End (ns)", "Duration (ns)", "In Use (ns)"})
    table.columns.push_back({title, 0});
  table.columns.push_back({"In Use (%)", 1});
  table.columns.push_back({"Kernels", 0});
  for (const auto& part : parts) {
    for (const auto& device : part.groups) {
      auto id = deviceOf(device);
      if (!id) continue;
      const auto& s = device.sums;
      table.rows.push_back({part.rankOrIndex(), *id, s[kFirstStart], s[kLastEnd], span(device), s[kBusy],
                            percentOf(s[kBusy], span(device)), s[kKernels]});
    }
  }
  return table;
}

ReportTable gpuTimeUtilTable(const std::vector<RecipePart>& parts) {
  ReportTable table{"gpu_time_util", "GPU Time Utilization over All Ranks", {}, {}};
  for (const char* title : {"Ranks", "Devices", "Duration (ns)", "In Use (ns)"}) table.columns.push_back({title, 0});
  for (const char* title : {"In Use (%)", "Min In Use (%)", "Max In Use (%)"}) table.columns.push_back({title, 1});
  table.columns.push_back({"Kernels", 0});
  int64_t ranks = 0, devices = 0, duration = 0, busy = 0, kernels = 0;
  double lowest = std::numeric_limits<double>::max(), highest = 0;
  for (const auto& part : parts) {
    ranks += part.groups.empty() ? 0 : 1;
    for (const auto& device : part.groups) {
      if (!deviceOf(device)) continue;
      ++devices;
      duration = saturatingAdd(duration, span(device));
      busy = saturatingAdd(busy, device.sums[kBusy]);
      kernels += device.sums[kKernels];
      double inUse = percentOf(device.sums[kBusy], span(device));
      lowest = std::min(lowest, inUse);
      highest = std::max(highest, inUse);
    }
  }
  if (devices == 0) return table;
  table.rows.push_back({ranks, devices, duration, busy, percentOf(busy, duration), lowest, highest, kernels});
  return table;
}

}  // namespace gpuscope
