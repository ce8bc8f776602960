#include "core/ranks/merge_ids.h"

#include <algorithm>
#include <limits>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/ranks/merge_columns.h"

namespace gpuscope {
namespace {

// Refuses a column of ROLE that holds a value other than an integer or NULL: arithmetic on it would
// turn text into 0 and two inputs' ids into one.
void checkIntegers(const Database& db, std::string_view table, const std::string& column) {
  auto row = db.prepare("SELECT rowid, typeof(" + column + ") FROM " + quoteIdentifier(table) + " WHERE typeof(" +
                        column + ") NOT IN ('integer', 'null') LIMIT 1");
  if (row.step())
    throw TraceError(db.path() + ": " + std::string(table) + " row " + std::to_string(row.int64(0)) + " has a " +
                     column.substr(1, column.size() - 2) + " that is not an integer (a " + std::string(row.text(1)) +
                     " value).");
}

int64_t maxOf(const Database& db, std::string_view table, const std::string& expression) {
  auto row = db.prepare("SELECT max(" + expression + ") FROM " + quoteIdentifier(table));
  return row.step() && !row.isNull(0) ? row.int64(0) : -1;
}

}  // namespace

InputIdSpan readIdSpan(const Database& db) {
  InputIdSpan span;
  for (std::string_view table : mergedTables()) {
    if (!db.hasTable(table)) continue;
    for (const std::string& name : db.columnsOf(table)) {
      ColumnRole role = columnRole(table, name);
      std::string column = quoteIdentifier(name);
      if (role == ColumnRole::GlobalId || role == ColumnRole::HwField || role == ColumnRole::Correlation ||
          role == ColumnRole::LocalId)
        checkIntegers(db, table, column);
      if (role == ColumnRole::GlobalId)
        span.hwMax = std::max(span.hwMax,
                              static_cast<uint32_t>(std::max<int64_t>(0, maxOf(db, table, global_id::sqlHw(column)))));
      if (role == ColumnRole::HwField)
        span.hwMax = std::max(span.hwMax, static_cast<uint32_t>(std::clamp<int64_t>(maxOf(db, table, column), 0, 255)));
      if (role == ColumnRole::Correlation)
        span.correlationMax = std::max(span.correlationMax, maxOf(db, table, column));
    }
  }
  return span;
}

std::vector<InputIdOffsets> assignIdOffsets(const std::vector<InputIdSpan>& spans) {
  std::vector<InputIdOffsets> offsets;
  uint32_t nextHw = 0;
  int64_t nextCorrelation = 0;
  for (const InputIdSpan& span : spans) {
    if (nextHw + span.hwMax >= global_id::kHwValues)
      throw TraceError("The inputs need more than " + std::to_string(global_id::kHwValues) +
                       " values of the globalPid hw field to keep their processes apart: merge fewer files at once.");
    int64_t correlationEnd = nextCorrelation + std::max<int64_t>(span.correlationMax, 0);
    if (span.correlationMax > std::numeric_limits<uint32_t>::max() ||
        correlationEnd > std::numeric_limits<uint32_t>::max())
      throw TraceError(
          "The inputs' correlation ids together pass 2^32, the range nsys gives them: merge fewer files "
          "at once.");
    offsets.push_back({nextHw, nextCorrelation});
    nextHw += span.hwMax + 1;
    nextCorrelation = correlationEnd + 1;
  }
  return offsets;
}

}  // namespace gpuscope
