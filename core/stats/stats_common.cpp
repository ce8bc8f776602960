#include "core/stats/stats_common.h"

#include "core/model/trace_file.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

void requireReportTable(const Database& db, std::string_view table) {
  if (db.hasTable(table)) return;
  try {
    requireTable(db, table);
  } catch (const TraceError& missing) {
    throw ReportUnavailable(missing.what());
  }
  throw ReportUnavailable("This file has no " + std::string(table) + " table.");
}

std::string columnOr(const Database& db, std::string_view table, std::string_view column, std::string_view fallback) {
  return std::string(hasColumn(db, table, column) ? column : fallback);
}

std::unordered_map<int64_t, std::string> enumLabels(const Database& db, std::string_view table,
                                                    const std::unordered_map<int64_t, std::string>& fallback) {
  auto labels = fallback;
  if (!db.hasTable(table) || !hasColumn(db, table, "label")) return labels;
  auto stmt = db.prepare("SELECT id, label FROM \"" + std::string(table) + "\" WHERE label IS NOT NULL");
  while (stmt.step()) labels[stmt.int64(0)] = std::string(stmt.text(1));
  return labels;
}

namespace {

// An ENUM_* table's rows as the id -> label map the stats read labels into.
std::unordered_map<int64_t, std::string> labelMap(const auto& rows) {
  std::unordered_map<int64_t, std::string> labels;
  for (const nsys_enum::EnumRow& row : rows) labels.emplace(row.id, std::string(row.label));
  return labels;
}

}  // namespace

const std::unordered_map<int64_t, std::string>& builtinMemcpyKindLabels() {
  static const std::unordered_map<int64_t, std::string> labels = labelMap(nsys_enum::kMemcpyOperRows);
  return labels;
}

const std::unordered_map<int64_t, std::string>& builtinMemoryKindLabels() {
  static const std::unordered_map<int64_t, std::string> labels = labelMap(nsys_enum::kMemKindRows);
  return labels;
}

std::string displayApiName(std::string_view name) {
  if (name.size() >= 6 && name.substr(name.size() - 6, 2) == "_v") return std::string(name.substr(0, name.size() - 6));
  return std::string(name);
}

void appendStatisticColumns(std::vector<ReportColumn>& columns, const std::string& prefix, const std::string& unit) {
  for (const char* statistic : {"Avg", "Med", "Min", "Max", "StdDev"})
    columns.push_back({prefix + statistic + " (" + unit + ")", 1});
}

void appendStatisticCells(std::vector<ReportCell>& row, const SampleSummary& summary) {
  if (summary.count == 0) {
    row.insert(row.end(), 5, ReportCell{});
    return;
  }
  row.emplace_back(sqlRound(summary.mean, 1));
  row.emplace_back(sqlRound(summary.median, 1));
  row.emplace_back(summary.min);
  row.emplace_back(summary.max);
  row.emplace_back(sqlRound(summary.stddev, 1));
}

SampleGroups groupSamples(const Database& db, const std::string& sql) {
  SampleGroups groups;
  auto stmt = db.prepare(sql);
  int labels = stmt.columnCount() - 1;
  std::vector<std::string> key;
  while (stmt.step()) {
    key.clear();
    for (int c = 0; c < labels; ++c) key.emplace_back(stmt.text(c));
    groups[key].push_back(stmt.int64(labels));
  }
  return groups;
}

}  // namespace gpuscope
