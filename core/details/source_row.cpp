#include "core/details/source_row.h"

#include <algorithm>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

SourceRow::SourceRow(const Database& db, std::string_view table, int64_t rowid,
                     const std::vector<std::string_view>& columns) {
  if (!db.hasTable(table)) return;
  auto present = db.columnsOf(table);
  std::vector<std::string> used;
  for (auto column : columns) {
    if (std::find(present.begin(), present.end(), column) != present.end()) used.emplace_back(column);
  }
  std::string sql = "SELECT 1";
  for (const auto& column : used) sql += ", " + quoteIdentifier(column);
  auto stmt = db.prepare(sql + " FROM " + quoteIdentifier(table) + " WHERE rowid = ?");
  stmt.bind(1, rowid);
  if (!stmt.step()) return;
  found_ = true;
  for (size_t i = 0; i < used.size(); ++i) {
    int c = static_cast<int>(i) + 1;
    if (stmt.isNull(c)) continue;
    values_[used[i]] = Value{stmt.int64(c), stmt.real(c), std::string(stmt.text(c))};
  }
}

const SourceRow::Value* SourceRow::value(std::string_view column) const {
  auto it = values_.find(column);
  return it == values_.end() ? nullptr : &it->second;
}

std::optional<int64_t> SourceRow::integer(std::string_view column) const {
  const Value* v = value(column);
  return v ? std::optional<int64_t>(v->integer) : std::nullopt;
}

std::optional<double> SourceRow::real(std::string_view column) const {
  const Value* v = value(column);
  return v ? std::optional<double>(v->real) : std::nullopt;
}

std::optional<std::string> SourceRow::text(std::string_view column) const {
  const Value* v = value(column);
  return v ? std::optional<std::string>(v->text) : std::nullopt;
}

std::optional<std::string> lookupString(const Database& db, int64_t id) {
  if (!db.hasTable(table::kStringIds) || !hasColumn(db, table::kStringIds, "value")) return std::nullopt;
  auto stmt = db.prepare("SELECT value FROM StringIds WHERE id = ?");
  stmt.bind(1, id);
  if (!stmt.step() || stmt.isNull(0)) return std::nullopt;
  return std::string(stmt.text(0));
}

std::optional<std::string> lookupEnumLabel(const Database& db, std::string_view enumTable, int64_t id) {
  if (!db.hasTable(enumTable) || !hasColumn(db, enumTable, "label") || !hasColumn(db, enumTable, "id"))
    return std::nullopt;
  auto stmt = db.prepare("SELECT label FROM " + quoteIdentifier(enumTable) + " WHERE id = ?");
  stmt.bind(1, id);
  if (!stmt.step() || stmt.isNull(0)) return std::nullopt;
  return std::string(stmt.text(0));
}

}  // namespace gpuscope
