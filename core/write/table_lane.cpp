#include "core/write/table_lane.h"

#include <sqlite3.h>

#include <filesystem>
#include <utility>

#include "core/error.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

TableLane::TableLane(std::string path, std::vector<LaneTable> tables, int pageBytes, size_t rowsPerTransaction)
    : path_(std::move(path)), tables_(std::move(tables)), rowsPerTransaction_(std::max<size_t>(rowsPerTransaction, 1)) {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
  // The connection is used by one thread at a time (this one, then the lane's): no SQLite mutex.
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string reason = db_ ? sqlite3_errmsg(db_) : "out of memory";
    close();
    throw TraceError(path_ + " could not be created (" + reason + ").");
  }
  try {
    // No syncs; a journal (of the few pages a transaction changes) so that a writer killed
    // mid-transaction leaves the side file as of its last commit (TraceWriter::resume).
    std::filesystem::remove(path_ + "-journal", ec);
    exec("PRAGMA page_size=" + std::to_string(pageBytes) + "; PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;");
    exec("BEGIN");
    for (const LaneTable& table : tables_) {
      exec(createTableSql(tableSpec(table.table)));
      inserts_.emplace_back(db_, table.table, table.columns);
    }
  } catch (...) {
    close();
    throw;
  }
  emptied_.resize(tables_.size());
  worker_ = std::make_unique<BoundedWorker<Job>>(
      kMaxQueued, [this](Job& job) { writeJob(job); }, [this](Job& job) { recycle(job); });
}

TableLane::~TableLane() {
  if (worker_) worker_->stop();
  close();
}

void TableLane::close() {
  inserts_.clear();  // finalizes the statements before the connection closes
  sqlite3_close_v2(db_);
  db_ = nullptr;
}

void TableLane::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) == SQLITE_OK) return;
  std::string reason = error ? error : sqlite3_errmsg(db_);
  sqlite3_free(error);
  throw TraceError(reason);
}

std::unique_ptr<CellRows> TableLane::submit(size_t table, std::unique_ptr<CellRows> rows) {
  worker_->push({table, std::move(rows)});
  std::lock_guard<std::mutex> lock(emptiedMutex_);
  if (emptied_[table].empty()) return nullptr;
  std::unique_ptr<CellRows> empty = std::move(emptied_[table].back());
  emptied_[table].pop_back();
  return empty;
}

void TableLane::commit() {
  worker_->push({0, nullptr});
  worker_->drain();
}

void TableLane::writeJob(Job& job) {
  if (!job.rows) {
    exec("COMMIT; BEGIN");
    rowsInTransaction_ = 0;
    return;
  }
  size_t rows = job.rows->rows();
  inserts_[job.table].write(*job.rows);
  rowsInTransaction_ += rows;
  if (rowsInTransaction_ >= rowsPerTransaction_) {
    exec("COMMIT; BEGIN");
    rowsInTransaction_ = 0;
  }
}

// Kept for reuse up to what the queue can hold, so memory stays bounded.
void TableLane::recycle(Job& job) {
  std::lock_guard<std::mutex> lock(emptiedMutex_);
  if (job.rows && emptied_[job.table].size() < kMaxQueued) emptied_[job.table].push_back(std::move(job.rows));
}

void TableLane::finish() {
  try {
    worker_->drain();
    worker_->stop();
    exec("COMMIT");
  } catch (...) {
    worker_->stop();
    close();
    throw;
  }
  close();
}

}  // namespace gpuscope
