#include "core/schema/trace_schema.h"

#include <algorithm>
#include <stdexcept>

#include "core/db/sqlite_database.h"

namespace gpuscope {
namespace {
using namespace schema_decl;

std::vector<TableSpec>& declaredTables() {
  static std::vector<TableSpec> tables = [] {
    std::vector<TableSpec> all;
    for (auto family : {cudaTables, hostTables, sampleTables, metricTables, gpuscopeTables}) {
      std::vector<TableSpec> some = family();
      all.insert(all.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
    }
    return all;
  }();
  return tables;
}

std::string_view typeName(SqlType type) {
  switch (type) {
    case SqlType::Integer:
      return "INTEGER";
    case SqlType::Text:
      return "TEXT";
    case SqlType::Real:
      return "REAL";
  }
  return "INTEGER";
}

std::string joined(const std::vector<std::string_view>& names, std::string_view separator) {
  std::string text;
  for (std::string_view name : names) text += (text.empty() ? "" : std::string(separator)) + std::string(name);
  return text;
}

std::string indexSql(const TableSpec& spec, const IndexSpec& index) {
  std::string name = "idx_" + std::string(spec.name) + "_" + joined(index.columns, "_");
  return std::string(index.unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX") + " IF NOT EXISTS " + name + " ON " +
         std::string(spec.name) + " (" + joined(index.columns, ", ") + ")";
}

std::string textLiteral(std::string_view text) {
  std::string literal = "'";
  for (char c : text) literal += c == '\'' ? std::string("''") : std::string(1, c);
  return literal + "'";
}

}  // namespace

TableSpec schema_decl::enumTable(std::string_view name, std::span<const nsys_enum::EnumRow> rows) {
  TableSpec spec{name, TableGroup::Rebuilt, {need("id", I), opt("name", T), opt("label", T)}, {"id"}};
  spec.enumRows = rows;
  return spec;
}

const std::vector<TableSpec>& traceSchema() { return declaredTables(); }

const TableSpec* findTableSpec(std::string_view name) {
  for (const TableSpec& spec : declaredTables())
    if (spec.name == name) return &spec;
  return nullptr;
}

const TableSpec& tableSpec(std::string_view name) {
  if (const TableSpec* spec = findTableSpec(name)) return *spec;
  throw std::out_of_range("no table " + std::string(name) + " in the trace schema");
}

std::vector<std::string_view> tablesIn(std::initializer_list<TableGroup> groups) {
  std::vector<std::string_view> names;
  for (const TableSpec& spec : declaredTables())
    if (std::find(groups.begin(), groups.end(), spec.group) != groups.end()) names.push_back(spec.name);
  return names;
}

std::vector<std::string_view> eventTables() {
  return tablesIn({TableGroup::GpuWork, TableGroup::HostCalls, TableGroup::Nvtx});
}

std::string createTableSql(const TableSpec& spec) {
  std::string sql = "CREATE TABLE IF NOT EXISTS " + std::string(spec.name) + " (";
  bool singleKey = spec.primaryKey.size() == 1;
  for (size_t i = 0; i < spec.columns.size(); ++i) {
    const ColumnSpec& column = spec.columns[i];
    if (i) sql += ", ";
    sql += std::string(column.name) + " " + std::string(typeName(column.type));
    if (column.notNull) sql += " NOT NULL";
    if (singleKey && column.name == spec.primaryKey.front()) sql += " PRIMARY KEY";
  }
  if (spec.primaryKey.size() > 1) sql += ", PRIMARY KEY (" + joined(spec.primaryKey, ", ") + ")";
  return sql + ")";
}

std::vector<std::string> createTableStatements(const TableSpec& spec) {
  std::vector<std::string> statements = {createTableSql(spec)};
  for (const IndexSpec& index : spec.indexes)
    if (index.unique) statements.push_back(indexSql(spec, index));
  for (const nsys_enum::EnumRow& row : spec.enumRows)
    statements.push_back("INSERT OR IGNORE INTO " + std::string(spec.name) + " (id, name, label) VALUES (" +
                         std::to_string(row.id) + ", " + textLiteral(row.name) + ", " + textLiteral(row.label) + ")");
  return statements;
}

std::vector<std::string> createLaterIndexStatements(const TableSpec& spec) {
  std::vector<std::string> statements;
  for (const IndexSpec& index : spec.indexes)
    if (!index.unique) statements.push_back(indexSql(spec, index));
  return statements;
}

std::vector<std::string> missingNeededColumns(const Database& db, const TableSpec& spec) {
  auto present = db.columnsOf(spec.name);
  std::vector<std::string> missing;
  for (const auto& column : spec.columns) {
    if (column.neededToRead && std::find(present.begin(), present.end(), column.name) == present.end())
      missing.emplace_back(column.name);
  }
  return missing;
}

bool hasColumn(const Database& db, std::string_view table, std::string_view column) {
  auto present = db.columnsOf(table);
  return std::find(present.begin(), present.end(), column) != present.end();
}

std::vector<TableRowCount> tableRowCounts(const Database& db) {
  std::vector<TableRowCount> counts;
  for (const TableSpec& spec : declaredTables()) {
    if (!db.hasTable(spec.name)) continue;
    auto count = db.prepare("SELECT count(*) FROM " + quoteIdentifier(spec.name));
    counts.push_back({spec.name, spec.group, count.step() ? count.int64(0) : 0});
  }
  return counts;
}

ScopedTableDeclaration::ScopedTableDeclaration(TableSpec spec) : name_(spec.name) {
  if (findTableSpec(name_)) throw std::logic_error("table " + std::string(name_) + " is declared already");
  declaredTables().push_back(std::move(spec));
}

ScopedTableDeclaration::~ScopedTableDeclaration() {
  auto& tables = declaredTables();
  tables.erase(std::remove_if(tables.begin(), tables.end(), [&](const TableSpec& spec) { return spec.name == name_; }),
               tables.end());
}

}  // namespace gpuscope
