#include "core/analysis/findings/kernel_times.h"

#include <algorithm>

#include "core/analysis/nsys/rule_rows.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

std::string kernelNameSql(const Database& db) {
  return "coalesce(" + columnOr(db, table::kKernel, "demangledName") + ", k.shortName)";
}

}  // namespace

KernelTimes kernelTimesByName(const Database& db, const AnalysisWindow& window) {
  KernelTimes times;
  if (!db.hasTable(table::kKernel) || !db.hasTable(table::kStringIds)) return times;
  auto statement =
      db.prepare("SELECT s.value, count(*), sum(k.end - k.start) FROM " + std::string(table::kKernel) +
                 " k JOIN StringIds s ON s.id = " + kernelNameSql(db) + " WHERE k.start > 0 AND k.end >= k.start AND " +
                 window.sqlCondition("k.") + " GROUP BY s.value");
  while (statement.step()) {
    times.names.push_back({std::string(statement.text(0)), statement.int64(1), statement.int64(2)});
    times.totalNs += statement.int64(2);
  }
  std::sort(times.names.begin(), times.names.end(), [](const KernelNameTime& a, const KernelNameTime& b) {
    return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
  });
  return times;
}

std::vector<FindingRange> longestKernelRanges(const Database& db, const AnalysisWindow& window,
                                              const std::set<std::string>& names, size_t limit) {
  std::vector<FindingRange> ranges;
  if (names.empty() || !db.hasTable(table::kKernel) || !db.hasTable(table::kStringIds)) return ranges;
  auto statement =
      db.prepare("SELECT k.start, k.end - k.start AS duration, " + global_id::sqlPid("k.globalPid") +
                 ", k.deviceId, k.contextId, k.streamId, s.value FROM " + std::string(table::kKernel) +
                 " k JOIN StringIds s ON s.id = " + kernelNameSql(db) + " WHERE k.start > 0 AND k.end >= k.start AND " +
                 window.sqlCondition("k.") + " ORDER BY duration DESC, k.start ASC");
  while (ranges.size() < limit && statement.step()) {
    if (!names.count(std::string(statement.text(6)))) continue;
    ranges.push_back(gpuRange(statement.int64(0), statement.int64(1), statement.int64(2), statement.int64(3),
                              statement.int64(4), statement.int64(5)));
  }
  return ranges;
}

}  // namespace gpuscope
