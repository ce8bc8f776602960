// cuda_api_trace: every CUDA runtime and driver API call, by start time, with its thread.
#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {
namespace {

struct NamedThread {
  ReportCell priority;
  std::string name;
};

std::unordered_map<int64_t, NamedThread> loadThreads(const Database& db) {
  std::unordered_map<int64_t, NamedThread> threads;
  if (!db.hasTable(table::kThreadNames)) return threads;
  auto stmt = db.prepare("SELECT t.globalTid, " + columnOr(db, table::kThreadNames, "priority") +
                         ", s.value FROM ThreadNames AS t LEFT JOIN StringIds AS s ON s.id = t.nameId "
                         "WHERE t.globalTid IS NOT NULL");
  while (stmt.step()) {
    ReportCell priority = optionalCell(!stmt.isNull(1), stmt.int64(1));
    threads.try_emplace(stmt.int64(0), NamedThread{priority, std::string(stmt.text(2))});
  }
  return threads;
}

struct ApiRow {
  int64_t start;
  int64_t correlationId;
  std::vector<ReportCell> cells;
};

}  // namespace

ReportTable cudaApiTrace(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kRuntime);
  auto threads = loadThreads(db);
  auto stmt = db.prepare("SELECT r.start, r.end - r.start, s.value, " + columnOr(db, table::kRuntime, "returnValue") +
                         ", r.correlationId, r.globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                         "LEFT JOIN StringIds AS s ON s.id = r.nameId");
  std::vector<ApiRow> rows;
  const NamedThread unnamed;
  while (stmt.step()) {
    int64_t globalTid = stmt.int64(5);
    auto thread = threads.find(globalTid);
    const NamedThread& info = thread == threads.end() ? unnamed : thread->second;
    rows.push_back(
        {stmt.int64(0),
         stmt.int64(4),
         {stmt.int64(0), stmt.int64(1), displayApiName(stmt.text(2)), optionalCell(!stmt.isNull(3), stmt.int64(3)),
          optionalCell(!stmt.isNull(4), stmt.int64(4)), int64_t{global_id::pid(globalTid)},
          int64_t{global_id::tid(globalTid)}, info.priority, info.name}});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const ApiRow& a, const ApiRow& b) {
    return std::tie(a.start, a.correlationId) < std::tie(b.start, b.correlationId);
  });
  ReportTable table{"cuda_api_trace", "CUDA API Trace", {}, {}};
  for (const char* title :
       {"Start (ns)", "Duration (ns)", "Name", "Result", "CorrID", "Pid", "Tid", "T-Pri", "Thread Name"})
    table.columns.push_back({title, 0});
  for (auto& row : rows) table.rows.push_back(std::move(row.cells));
  return table;
}

}  // namespace gpuscope
