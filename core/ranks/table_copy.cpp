#include "core/ranks/table_copy.h"

#include <algorithm>
#include <limits>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/ranks/merge_columns.h"
#include "core/ranks/string_remap.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// Refuses a time column holding text or a real, and one whose shift would overflow: SQLite would turn
// either into a REAL silently, and the readers refuse REAL times.
void checkTimes(const Database& input, std::string_view table, const std::string& name, int64_t shift) {
  std::string column = quoteIdentifier(name);
  auto wrong = input.prepare("SELECT rowid, typeof(" + column + ") FROM " + quoteIdentifier(table) + " WHERE typeof(" +
                             column + ") NOT IN ('integer', 'null') LIMIT 1");
  if (wrong.step())
    throw TraceError(input.path() + ": " + std::string(table) + " row " + std::to_string(wrong.int64(0)) + " has " +
                     (name == "end" ? "an " : "a ") + name + " time that is not an integer (a " +
                     std::string(wrong.text(1)) + " value).");
  auto range = input.prepare("SELECT min(" + column + "), max(" + column + ") FROM " + quoteIdentifier(table));
  if (!range.step() || range.isNull(0)) return;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  bool overflows = shift > 0 ? range.int64(1) > kMax - shift : range.int64(0) < kMin - shift;
  if (overflows)
    throw TraceError(input.path() + ": shifting " + std::string(table) + "'s " + name + " times by " +
                     std::to_string(shift) + " ns would pass what 64-bit times hold.");
}

// The SQL that yields COLUMN's merged value.
std::string mergedValue(std::string_view table, const std::string& name, const TableCopyRules& rules) {
  std::string column = "x." + quoteIdentifier(name);
  switch (columnRole(table, name)) {
    case ColumnRole::Time:
      return column + " + " + std::to_string(rules.timeShiftNs);
    case ColumnRole::GlobalId:
      return global_id::sqlAddHw(column, rules.ids.hwAdd);
    case ColumnRole::HwField:
      return column + " + " + std::to_string(rules.ids.hwAdd);
    case ColumnRole::Correlation:
      return column + " + " + std::to_string(rules.ids.correlationAdd);
    case ColumnRole::StringRef:
      return StringRemap::mappedSql(column);
    case ColumnRole::LocalId: {
      auto add = rules.localIdAdd.find(std::string(idSpaceOf(table, name)));
      std::string offset = std::to_string(add == rules.localIdAdd.end() ? 0 : add->second);
      return "CASE WHEN " + column + " > 0 THEN " + column + " + " + offset + " ELSE " + column + " END";
    }
    case ColumnRole::Plain:
    case ColumnRole::Enum:
      break;
  }
  return column;
}

// Rows the merged table has already: the same GPU (or measured roof) seen by two ranks of one host is
// kept once (TableSpec::sameRowKey). A key column the input lacks counts as NULL; one it has is compared as it
// will be written (a global id with the input's hw field), so two hosts' rows of one key stay two.
std::string duplicateFilter(std::string_view table, const std::vector<std::string>& present,
                            const TableCopyRules& rules) {
  const std::vector<std::string_view>& keys = tableSpec(table).sameRowKey;
  if (keys.empty()) return "1";
  std::string same;
  for (std::string_view key : keys) {
    std::string column = quoteIdentifier(key);
    bool has = std::find(present.begin(), present.end(), key) != present.end();
    same += (same.empty() ? "" : " AND ") + ("d." + column) + " IS " +
            (has ? mergedValue(table, std::string(key), rules) : std::string("NULL"));
  }
  return "NOT EXISTS (SELECT 1 FROM main." + std::string(table) + " d WHERE " + same + ")";
}

int64_t rowCount(const Database& input, std::string_view table) {
  auto count = input.prepare("SELECT count(*) FROM " + quoteIdentifier(table));
  return count.step() ? count.int64(0) : 0;
}

}  // namespace

TableCopyResult copyTable(Database& out, const Database& input, std::string_view schema, std::string_view table,
                          const TableCopyRules& rules) {
  TableCopyResult result;
  auto present = input.columnsOf(table);
  std::string columns, values, known = "1";
  for (const ColumnSpec& spec : tableSpec(table).columns) {
    std::string name(spec.name);
    bool has = std::find(present.begin(), present.end(), name) != present.end();
    if (!has && !spec.notNull) continue;
    columns += (columns.empty() ? "" : ", ") + quoteIdentifier(name);
    if (!has) {
      result.columnsZeroed.push_back(std::string(table) + "." + name);
      values += std::string(values.empty() ? "" : ", ") + "0";
      continue;
    }
    ColumnRole role = columnRole(table, name);
    if (role == ColumnRole::Time) checkTimes(input, table, name, rules.timeShiftNs);
    if (role == ColumnRole::StringRef) known += " AND " + StringRemap::knownSql("x." + quoteIdentifier(name));
    values += (values.empty() ? "" : ", ") + mergedValue(table, name, rules);
  }
  const TableSpec& spec = tableSpec(table);
  for (const std::string& name : present) {
    bool kept =
        std::any_of(spec.columns.begin(), spec.columns.end(), [&](const ColumnSpec& c) { return c.name == name; });
    if (!kept) result.columnsLeft.push_back(std::string(table) + "." + name);
  }
  auto insert = out.prepare("INSERT INTO main." + std::string(table) + " (" + columns + ") SELECT " + values +
                            " FROM " + quoteIdentifier(schema) + "." + quoteIdentifier(table) + " x WHERE " + known +
                            " AND " + duplicateFilter(table, present, rules));
  insert.step();
  auto changes = out.prepare("SELECT changes()");
  result.copied = changes.step() ? changes.int64(0) : 0;
  if (known != "1") result.dropped = rowCount(input, table) - result.copied;
  return result;
}

}  // namespace gpuscope
