#include "core/samples/callchains.h"

#include <algorithm>

#include "core/db/sqlite_database.h"

namespace gpuscope {
namespace {

// A flag column, or 0 where this export's version lacks it.
std::string flagColumn(const std::vector<std::string>& columns, const std::string& name) {
  bool present = std::find(columns.begin(), columns.end(), name) != columns.end();
  return present ? "c." + name : "0";
}

uint8_t flagsOf(const Statement& row) {
  uint8_t flags = 0;
  if (!row.isNull(2) && row.int64(2) != 0) flags |= SampleFrame::kKernelMode;
  if (!row.isNull(3) && row.int64(3) != 0) flags |= SampleFrame::kUnresolved;
  if (!row.isNull(4) && row.int64(4) != 0) flags |= SampleFrame::kSpecial;
  return flags;
}

// A StringIds text, or a bracketed note where the id names no string.
std::string textOr(const Statement& row, int column, int idColumn) {
  if (!row.isNull(column)) return std::string(row.text(column));
  return "[missing string " + std::string(row.isNull(idColumn) ? "NULL" : std::to_string(row.int64(idColumn))) + "]";
}

}  // namespace

std::vector<CallchainFrame> readCallchain(const Database& db, std::string_view table, int64_t id) {
  std::vector<CallchainFrame> frames;
  if (id <= 0 || !db.hasTable(table) || !db.hasTable("StringIds")) return frames;
  auto columns = db.columnsOf(table);
  std::string sql = "SELECT s.value, m.value, " + flagColumn(columns, "kernelMode") + ", " +
                    flagColumn(columns, "unresolved") + ", " + flagColumn(columns, "specialEntry") +
                    ", c.symbol, c.module FROM " + std::string(table) +
                    " c LEFT JOIN StringIds s ON s.id = c.symbol LEFT JOIN StringIds m ON m.id = c.module"
                    " WHERE c.id = ?1 ORDER BY c.stackDepth";
  Statement row = db.prepare(sql);
  row.bind(1, id);
  while (row.step()) frames.push_back({textOr(row, 0, 5), textOr(row, 1, 6), flagsOf(row)});
  return frames;
}

}  // namespace gpuscope
