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
    // A scratch file: no journal, no syncs.
    exec("PRAGMA page_size=" + std::to_string(pageBytes) + "; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
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
  thread_ = std::thread([this] { run(); });
}

TableLane::~TableLane() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
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
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < kMaxQueued || error_; });
  if (error_) std::rethrow_exception(error_);
  queue_.push_back({table, std::move(rows)});
  std::unique_ptr<CellRows> empty;
  if (!emptied_[table].empty()) {
    empty = std::move(emptied_[table].back());
    emptied_[table].pop_back();
  }
  lock.unlock();
  changed_.notify_all();
  return empty;
}

void TableLane::writeJob(Job& job) {
  size_t rows = job.rows->rows();
  inserts_[job.table].write(*job.rows);
  rowsInTransaction_ += rows;
  if (rowsInTransaction_ >= rowsPerTransaction_) {
    exec("COMMIT; BEGIN");
    rowsInTransaction_ = 0;
  }
}

void TableLane::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
    }
    changed_.notify_all();
    std::exception_ptr error;
    try {
      if (!error_) writeJob(job);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !error_) error_ = error;
      if (error_) queue_.clear();
      // Kept for reuse up to what the queue can hold, so memory stays bounded.
      if (emptied_[job.table].size() < kMaxQueued) emptied_[job.table].push_back(std::move(job.rows));
      writing_ = false;
    }
    changed_.notify_all();
  }
}

void TableLane::finish() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return (queue_.empty() && !writing_) || error_; });
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  if (error_) {
    close();
    std::rethrow_exception(error_);
  }
  try {
    exec("COMMIT");
  } catch (...) {
    close();
    throw;
  }
  close();
}

}  // namespace gpuscope
