#pragma once
// TraceWriter's private state, shared by its two source files (trace_writer.cpp: the row structs, the lane,
// commits; trace_writer_tables.cpp: rows of any declared table, strings, indexes, adding to a finished file).
#include <sqlite3.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/write/bulk_insert.h"
#include "core/write/table_lane.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

struct TransparentHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// The connection is opened without SQLite's per-call mutex: one thread uses a writer.
struct Connection {
  sqlite3* handle = nullptr;
  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() { sqlite3_close_v2(handle); }
};

// Whether the file DB has a table named TABLE.
inline bool tableExists(sqlite3* db, std::string_view table) {
  sqlite3_stmt* query = nullptr;
  const char* sql = "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1";
  bool found =
      sqlite3_prepare_v2(db, sql, -1, &query, nullptr) == SQLITE_OK &&
      sqlite3_bind_text(query, 1, table.data(), static_cast<int>(table.size()), SQLITE_TRANSIENT) == SQLITE_OK &&
      sqlite3_step(query) == SQLITE_ROW;
  sqlite3_finalize(query);
  return found;
}

struct TraceWriter::Statements {
  Connection connection;                           // declared first: closed after the statements are finalized
  std::vector<std::optional<BulkInsert>> tables;   // per StatementId, on the trace file (none: its table is absent)
  std::vector<std::unique_ptr<CellRows>> pending;  // per StatementId: rows not yet written
  std::vector<int> laneTable;                      // per StatementId: its index in lane->tables(), or -1
  std::unique_ptr<TableLane> lane;
  std::unordered_map<std::string, int64_t, TransparentHash, std::equal_to<>> strings;
  std::vector<std::vector<bool>> stringColumns;  // per statement opened by tableRows(): its StringRef columns
  std::set<std::string_view> created;            // declared tables the file has
  std::set<std::string_view> indexed;            // of those, the ones whose indexes finish() creates
  int64_t nextStringId = 0;
  bool appending = false;  // a finished file that rows are added to (TraceWriter::addTo)

  sqlite3* db() const { return connection.handle; }
};

}  // namespace gpuscope
