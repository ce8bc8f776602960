#include "core/analysis/nsys/gpu_ops.h"

#include <algorithm>
#include <string>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

std::map<ContextKey, std::vector<TimeInterval>> gpuOpsByContext(const Database& db, const AnalysisWindow& window) {
  std::map<ContextKey, std::vector<TimeInterval>> byContext;
  for (std::string_view table : tablesIn({TableGroup::GpuWork})) {
    if (!db.hasTable(table)) continue;
    auto statement =
        db.prepare("SELECT " + global_id::sqlPid("globalPid") + ", deviceId, contextId, start, end FROM " +
                   std::string(table) + " WHERE start > 0 AND end >= start AND " + window.sqlCondition(""));
    while (statement.step()) {
      ContextKey key{static_cast<uint32_t>(statement.int64(0)), static_cast<uint32_t>(statement.int64(1)),
                     static_cast<uint32_t>(statement.int64(2))};
      byContext[key].push_back({statement.int64(3), statement.int64(4)});
    }
  }
  for (auto& [key, ops] : byContext) {
    std::sort(ops.begin(), ops.end(), [](const TimeInterval& a, const TimeInterval& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
  }
  return byContext;
}

TimeNs busyTime(const std::vector<TimeInterval>& ops, TimeNs from, TimeNs to) {
  TimeNs busy = 0;
  TimeNs coveredUntil = from;
  // Operations that start before FROM may still reach into it: scan from the first that can.
  for (const TimeInterval& op : ops) {
    if (op.start >= to) break;
    TimeNs start = std::max(op.start, coveredUntil);
    TimeNs end = std::min(op.end, to);
    if (end > start) {
      busy += end - start;
      coveredUntil = end;
    }
  }
  return busy;
}

}  // namespace gpuscope
