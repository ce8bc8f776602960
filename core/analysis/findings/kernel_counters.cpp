#include "core/analysis/findings/kernel_counters.h"

#include "core/analysis/nsys/rule_rows.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {

std::map<std::string, SeriesStats> sampledByKernelName(const Database& db, const AnalysisWindow& window,
                                                       const GpuMetrics& metrics, std::string_view metric,
                                                       const std::set<std::string>& names) {
  std::map<std::string, SeriesStats> byName;
  if (metrics.empty() || names.empty() || !db.hasTable(table::kKernel) || !db.hasTable(table::kStringIds))
    return byName;
  auto statement =
      db.prepare("SELECT k.start, k.end, k.deviceId, s.value, k.globalPid FROM " + std::string(table::kKernel) +
                 " k JOIN StringIds s ON s.id = coalesce(" + columnOr(db, table::kKernel, "demangledName") +
                 ", k.shortName) WHERE k.start > 0 AND k.end >= k.start AND " + window.sqlCondition("k."));
  while (statement.step()) {
    std::string name(statement.text(3));
    if (!names.contains(name)) continue;
    const GpuMetricDevice* device =
        metrics.device(static_cast<int>(statement.int64(2)), global_id::hw(statement.int64(4)));
    const MetricSeries* series = device ? device->find(metric) : nullptr;
    if (series == nullptr) continue;
    SeriesStats part = samplesInside(*device, *series, {statement.int64(0), statement.int64(1)});
    SeriesStats& total = byName[name];
    total.count += part.count;
    total.sum += part.sum;
  }
  return byName;
}

}  // namespace gpuscope
