#include "core/ranks/merge_columns.h"

#include <algorithm>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

std::vector<std::string_view> mergedTables() {
  return tablesIn({TableGroup::GpuWork, TableGroup::HostCalls, TableGroup::Nvtx, TableGroup::Samples,
                   TableGroup::Counters, TableGroup::Metadata});
}

bool rebuiltByMerge(std::string_view table) {
  const TableSpec* spec = findTableSpec(table);
  return spec ? spec->group == TableGroup::Rebuilt : table.substr(0, 5) == "ENUM_";
}

ColumnRole columnRole(std::string_view table, std::string_view column) {
  const TableSpec* spec = findTableSpec(table);
  const ColumnSpec* declared = spec ? spec->column(column) : nullptr;
  return declared ? declared->role : ColumnRole::Plain;
}

std::string_view idSpaceOf(std::string_view table, std::string_view column) {
  const TableSpec* spec = findTableSpec(table);
  const ColumnSpec* declared = spec ? spec->column(column) : nullptr;
  return declared && declared->role == ColumnRole::LocalId ? declared->idSpace : std::string_view();
}

std::map<std::string, int64_t> localIdOffsets(const Database& out) {
  std::map<std::string, int64_t> offsets;
  for (const TableSpec& spec : traceSchema()) {
    for (const ColumnSpec& column : spec.columns) {
      if (column.role != ColumnRole::LocalId) continue;
      int64_t& largest = offsets[std::string(column.idSpace)];
      if (!out.hasTable(spec.name)) continue;
      auto max = out.prepare("SELECT max(" + quoteIdentifier(column.name) + ") FROM " + quoteIdentifier(spec.name));
      if (max.step() && max.isInteger(0)) largest = std::max(largest, max.int64(0));
    }
  }
  return offsets;
}

}  // namespace gpuscope
