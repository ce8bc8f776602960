#include "core/stats/stats_window.h"

#include "core/schema/trace_schema.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {

void restrictEventTables(Database& db, TimeInterval range) {
  if (range.empty()) return;
  const std::string from = std::to_string(range.start), to = std::to_string(range.end);
  for (std::string_view table : eventTables()) {
    if (!db.hasTable(table)) continue;
    std::string name = "\"" + std::string(table) + "\"";
    db.exec("CREATE TEMP VIEW " + name + " AS SELECT * FROM main." + name + " WHERE start < " + to +
            " AND (coalesce(\"end\", start) > " + from + " OR start >= " + from + ")");
  }
}

ReportTable runStatsReportInRange(const std::string& path, std::string_view name, TimeInterval range) {
  requireStatsReportName(name);
  Database db = Database::openReadOnly(path);
  restrictEventTables(db, range);
  return runStatsReport(db, name);
}

}  // namespace gpuscope
