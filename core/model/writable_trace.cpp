#include "core/model/writable_trace.h"

#include <sqlite3.h>

#include "core/error.h"

namespace gpuscope {

WritableTrace::WritableTrace(const std::string& path) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    std::string reason = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw TraceError(path + " could not be opened for writing (" + reason + ").");
  }
  // The file is untrusted: nothing in its schema may run code or reach outside it.
  sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_busy_timeout(db_, 2000);
}

WritableTrace::~WritableTrace() { sqlite3_close_v2(db_); }

void WritableTrace::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string reason = error ? error : "unknown error";
    sqlite3_free(error);
    throw TraceError("Writing into " + path_ + " failed (" + reason + ").");
  }
}

void WritableTrace::fail() { throw TraceError("Writing into " + path_ + " failed (" + sqlite3_errmsg(db_) + ")."); }

void WritableTrace::rollback() { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

}  // namespace gpuscope
