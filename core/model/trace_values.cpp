#include "core/model/trace_values.h"

#include <limits>
#include <vector>

#include "core/error.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace value_problem {

std::string missing(std::string_view what) { return "has no " + std::string(what); }

std::string notInteger(std::string_view what, std::string_view type) {
  return "has a " + std::string(what) + " that is not an integer (a " + std::string(type) + " value)";
}

std::string endsBeforeStart(int64_t start, int64_t end) {
  return "ends before it starts (start " + std::to_string(start) + ", end " + std::to_string(end) + ")";
}

std::string danglingString(int64_t fileId, std::string_view what) {
  return "names string id " + std::to_string(fileId) + " as its " + std::string(what) +
         ", but StringIds has no such id";
}

std::string rowidOutOfRange(int64_t rowid) {
  return "has a rowid beyond what gpuscope supports (" + std::to_string(rowid) + ")";
}

std::string sentence(std::string_view table, int64_t row, const std::string& problem) {
  return std::string(table) + " row " + std::to_string(row) + " " + problem + ".";
}

}  // namespace value_problem

namespace {

// A column the loader requires: its name, the words its sentences use, and whether it names a string.
struct ValueColumn {
  std::string name;
  std::string what;
  bool isString = false;
  bool nullable = false;  // NVTX end: NULL means an instant
};

struct TableValues {
  std::string_view table;
  std::vector<ValueColumn> columns;  // in the order the loader checks them; the first two are start, end
  std::string rowFilter = "1";       // rows the loader reads
};

std::vector<ValueColumn> gpuColumns(std::vector<ValueColumn> extra) {
  std::vector<ValueColumn> columns = {{"start", "start time"},
                                      {"end", "end time"},
                                      {"deviceId", "deviceId"},
                                      {"contextId", "contextId"},
                                      {"streamId", "streamId"}};
  columns.insert(columns.end(), extra.begin(), extra.end());
  return columns;
}

std::vector<TableValues> checkedTables() {
  std::string nvtxTypes = std::to_string(nsys_enum::kNvtxMark) + ", " + std::to_string(nsys_enum::kNvtxPushPopRange) +
                          ", " + std::to_string(nsys_enum::kNvtxStartEndRange);
  return {
      {table::kRuntime,
       {{"start", "start time"}, {"end", "end time"}, {"globalTid", "globalTid"}, {"nameId", "nameId", true}}},
      {table::kOsrt,
       {{"start", "start time"}, {"end", "end time"}, {"globalTid", "globalTid"}, {"nameId", "nameId", true}}},
      {table::kKernel, gpuColumns({{"shortName", "shortName", true}})},
      {table::kMemcpy, gpuColumns({{"copyKind", "copyKind"}})},
      {table::kMemset, gpuColumns({})},
      {table::kNvtx,
       {{"start", "start time"}, {"end", "end time", false, true}, {"globalTid", "globalTid"}},
       "eventType IN (" + nvtxTypes + ")"},
  };
}

// SQL that is true for a row holding any value the policy refuses.
std::string problemCondition(const TableValues& spec) {
  std::string condition = "rowid < 0 OR rowid > " + std::to_string(std::numeric_limits<uint32_t>::max());
  for (const auto& column : spec.columns) {
    std::string c = quoteIdentifier(column.name);
    condition += " OR typeof(" + c + ") != 'integer'";
    if (column.nullable) condition += " AND " + c + " IS NOT NULL";
    if (column.isString) condition += " OR " + c + " NOT IN (SELECT id FROM StringIds)";
  }
  return condition + " OR \"end\" < start";
}

bool stringExists(const Database& db, int64_t fileId) {
  auto stmt = db.prepare("SELECT 1 FROM StringIds WHERE id = ?1");
  stmt.bind(1, fileId);
  return stmt.step();
}

// The loader's sentence for the first refused value of a row selected by problemCondition.
std::string describe(const Database& db, const TableValues& spec, const Statement& row) {
  int64_t rowid = row.int64(0);
  if (rowid < 0 || rowid > std::numeric_limits<uint32_t>::max()) return value_problem::rowidOutOfRange(rowid);
  for (size_t i = 0; i < spec.columns.size(); ++i) {
    const ValueColumn& column = spec.columns[i];
    int c = static_cast<int>(i) + 1;
    if (row.isNull(c) && !column.nullable) return value_problem::missing(column.what);
    if (!row.isNull(c) && !row.isInteger(c)) return value_problem::notInteger(column.what, row.typeName(c));
    if (i == 1 && !row.isNull(2) && row.int64(2) < row.int64(1))
      return value_problem::endsBeforeStart(row.int64(1), row.int64(2));
    if (column.isString && !stringExists(db, row.int64(c)))
      return value_problem::danglingString(row.int64(c), column.what);
  }
  return "holds a value gpuscope cannot read";
}

void checkTable(const Database& db, const TableValues& spec) {
  std::string columns;
  for (const auto& column : spec.columns) columns += ", " + quoteIdentifier(column.name);
  auto stmt = db.prepare("SELECT rowid" + columns + " FROM " + quoteIdentifier(spec.table) + " WHERE (" +
                         spec.rowFilter + ") AND (" + problemCondition(spec) + ") ORDER BY rowid LIMIT 1");
  if (stmt.step()) throw TraceError(value_problem::sentence(spec.table, stmt.int64(0), describe(db, spec, stmt)));
}

}  // namespace

void checkTraceValues(const Database& db) {
  for (const auto& spec : checkedTables()) {
    if (db.hasTable(spec.table)) checkTable(db, spec);
  }
}

}  // namespace gpuscope
