#include "core/ranks/rank_extract.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/rank_table.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// Every (table, column) of DB whose column is a globalPid or a globalTid.
std::vector<std::pair<std::string, std::string>> globalIdColumns(const Database& db) {
  std::vector<std::pair<std::string, std::string>> columns;
  auto tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
  while (tables.step()) {
    std::string name(tables.text(0));
    for (const char* column : {"globalPid", "globalTid"})
      if (hasColumn(db, name, column)) columns.emplace_back(name, column);
  }
  return columns;
}

std::string processKey(const std::string& column) {
  return "(\"" + column + "\" >> " + std::to_string(global_id::kPidShift) + ")";
}

std::string sqlList(const std::set<int64_t>& values) {
  std::string list;
  for (int64_t value : values) list += (list.empty() ? "" : ",") + std::to_string(value);
  return list;
}

std::string ranksText(const std::vector<int64_t>& ranks) {
  std::string text;
  for (int64_t rank : ranks) text += (text.empty() ? "" : ", ") + std::to_string(rank);
  return text;
}

}  // namespace

std::vector<int64_t> ranksOf(const Database& db) {
  std::vector<int64_t> ranks;
  for (const RankRow& row : readRankRows(db)) ranks.push_back(row.rank);
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());  // rows come by rank
  return ranks;
}

void extractRank(const Database& db, int64_t rank, const std::string& output) {
  std::vector<RankRow> rows = readRankRows(db);
  if (rows.empty())
    throw TraceError(db.path() + " does not say which rank its processes are (no " + std::string(table::kRanks) +
                     " table): give the rank files themselves, or merge them first with gpuscope merge.");
  std::vector<int64_t> ranks = ranksOf(db);
  if (!std::binary_search(ranks.begin(), ranks.end(), rank))
    throw TraceError(db.path() + " has no rank " + std::to_string(rank) + "; its ranks are " + ranksText(ranks) + ".");
  auto columns = globalIdColumns(db);
  std::set<int64_t> keep;  // process keys (the global id without its tid) of RANK's processes
  for (const auto& [name, column] : columns) {
    auto keys = db.prepare("SELECT DISTINCT " + processKey(column) + " FROM \"" + name + "\" WHERE \"" + column +
                           "\" IS NOT NULL");
    while (keys.step()) {
      int64_t key = keys.int64(0);
      const RankRow* row = rankOfGlobalId(rows, key << global_id::kPidShift);
      if (row && row->rank == rank) keep.insert(key);
    }
  }
  std::filesystem::remove(output);
  auto vacuum = db.prepare("VACUUM INTO ?1");  // the whole file, every table as it is
  vacuum.bind(1, output);
  vacuum.step();
  Database copy = Database::openWritable(output);
  copy.exec("BEGIN");
  for (const auto& [name, column] : columns)
    copy.exec("DELETE FROM \"" + name + "\" WHERE \"" + column + "\" IS NOT NULL AND " + processKey(column) +
              " NOT IN (" + sqlList(keep) + ")");
  copy.exec("DELETE FROM " + std::string(table::kRanks) + " WHERE rank <> " + std::to_string(rank));
  copy.exec("COMMIT");
}

}  // namespace gpuscope
