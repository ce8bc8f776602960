#pragma once
// TableLane: writes some tables of a trace on a thread and SQLite connection of its own, into a
// side file that TraceWriter copies into the trace when it finishes.
//
// SQLite writes one file from one thread, and the inserts are most of a recording's cost; the
// GPU activity tables (kernels above all, 28 columns a row) are written here while the writer's
// thread writes the rest. The copy at the end moves whole records without decoding them (SQLite's
// INSERT ... SELECT * transfer), which costs a fraction of inserting them.
//
// Memory is bounded: at most kMaxQueued full CellRows wait; submit() blocks beyond that.
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/write/bounded_worker.h"
#include "core/write/bulk_insert.h"

struct sqlite3;

namespace gpuscope {

struct LaneTable {
  std::string_view table;
  std::vector<std::string_view> columns;  // bound in this order
};

class TableLane {
 public:
  // Creates PATH (replacing it) with TABLES, created as the trace schema declares them.
  // Throws TraceError when the file cannot be written.
  TableLane(std::string path, std::vector<LaneTable> tables, int pageBytes, size_t rowsPerTransaction);
  // Stops the thread; the side file is left for the caller to remove.
  ~TableLane();
  TableLane(const TableLane&) = delete;
  TableLane& operator=(const TableLane&) = delete;

  // Rows of tables[TABLE] to write; blocks while kMaxQueued wait. Returns an emptied CellRows to
  // fill next, or null. Rethrows an error the thread met (as TraceError with SQLite's reason).
  std::unique_ptr<CellRows> submit(size_t table, std::unique_ptr<CellRows> rows);
  // Writes and commits what was submitted: a writer killed later leaves it in the side file.
  // Rethrows an error the thread met.
  void commit();
  // Writes everything submitted, commits and closes the side file. Rethrows an error.
  void finish();

  const std::string& path() const { return path_; }
  const std::vector<LaneTable>& tables() const { return tables_; }

 private:
  struct Job {
    size_t table;
    std::unique_ptr<CellRows> rows;  // null: commit
  };
  static constexpr size_t kMaxQueued = 8;

  void exec(const std::string& sql);
  void writeJob(Job& job);
  void recycle(Job& job);
  void close();

  std::string path_;
  std::vector<LaneTable> tables_;
  size_t rowsPerTransaction_;
  size_t rowsInTransaction_ = 0;
  sqlite3* db_ = nullptr;
  std::vector<BulkInsert> inserts_;  // one per table, on db_

  std::mutex emptiedMutex_;
  std::vector<std::vector<std::unique_ptr<CellRows>>> emptied_;  // per table: written, to be filled again
  std::unique_ptr<BoundedWorker<Job>> worker_;
};

}  // namespace gpuscope
