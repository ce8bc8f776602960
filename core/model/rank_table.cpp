#include "core/model/rank_table.h"

#include <algorithm>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

constexpr const char* kColumns =
    "rank, localRank, worldSize, hostName, sessionStartUtcNs, hwFirst, hwLast, correlationIdOffset, timeShiftNs, "
    "rankSource, sourcePath";  // then pid, which files written before it have not

void bindOptional(Statement& insert, int index, const std::optional<int64_t>& value) {
  if (value) insert.bind(index, *value);
}

}  // namespace

void writeRankRows(Database& db, const std::vector<RankRow>& rows) {
  db.exec(createTableSql(tableSpec(table::kRanks)));
  auto insert = db.prepare("INSERT INTO " + std::string(table::kRanks) + " (" + kColumns +
                           ", pid) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  for (const RankRow& row : rows) {
    insert.reset();  // clears the bindings too: an unset optional is written as NULL
    insert.bind(1, row.rank);
    bindOptional(insert, 2, row.localRank);
    bindOptional(insert, 3, row.worldSize);
    if (!row.hostName.empty()) insert.bind(4, row.hostName);
    bindOptional(insert, 5, row.sessionStartUtcNs);
    insert.bind(6, int64_t{row.hwFirst});
    insert.bind(7, int64_t{row.hwLast});
    insert.bind(8, row.correlationIdOffset);
    insert.bind(9, row.timeShiftNs);
    insert.bind(10, row.rankSource);
    insert.bind(11, row.sourcePath);
    bindOptional(insert, 12, row.pid);
    insert.step();
  }
}

std::vector<RankRow> readRankRows(const Database& db) {
  std::vector<RankRow> rows;
  if (!db.hasTable(table::kRanks) || !missingNeededColumns(db, tableSpec(table::kRanks)).empty()) return rows;
  bool hasPid = hasColumn(db, table::kRanks, "pid");
  auto select = db.prepare(std::string("SELECT ") + kColumns + (hasPid ? ", pid" : ", NULL") + " FROM " +
                           std::string(table::kRanks) + (hasPid ? " ORDER BY rank, pid" : " ORDER BY rank"));
  while (select.step()) {
    for (int column : {0, 5, 6, 7, 8}) {
      if (!select.isInteger(column))
        throw TraceError(db.path() + "'s GPUSCOPE_RANKS has a value that is not an integer (a " +
                         select.typeName(column) + " value).");
    }
    auto optional = [&](int column) -> std::optional<int64_t> {
      if (!select.isInteger(column)) return std::nullopt;
      return select.int64(column);
    };
    RankRow row;
    row.rank = select.int64(0);
    row.localRank = optional(1);
    row.worldSize = optional(2);
    row.hostName = std::string(select.text(3));
    row.sessionStartUtcNs = optional(4);
    row.hwFirst = static_cast<uint32_t>(std::clamp<int64_t>(select.int64(5), 0, global_id::kHwValues - 1));
    row.hwLast = static_cast<uint32_t>(std::clamp<int64_t>(select.int64(6), 0, global_id::kHwValues - 1));
    row.correlationIdOffset = select.int64(7);
    row.timeShiftNs = select.int64(8);
    row.rankSource = std::string(select.text(9));
    row.sourcePath = std::string(select.text(10));
    row.pid = optional(11);
    rows.push_back(std::move(row));
  }
  return rows;
}

const RankRow* rankOfGlobalId(const std::vector<RankRow>& rows, int64_t globalId) {
  uint32_t hw = global_id::hw(globalId);
  const RankRow* wholeRange = nullptr;
  for (const RankRow& row : rows) {
    if (hw < row.hwFirst || hw > row.hwLast) continue;
    if (!row.pid) {
      wholeRange = wholeRange ? wholeRange : &row;
    } else if (*row.pid == global_id::pid(globalId)) {
      return &row;
    }
  }
  return wholeRange;
}

}  // namespace gpuscope
