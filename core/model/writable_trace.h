#pragma once
// WritableTrace: a read-write connection to an existing trace file, for the commands that add our own tables
// to it (import-ncu, peaks --store), with the same safety settings as reading an untrusted file.
#include <string>

struct sqlite3;

namespace gpuscope {

class WritableTrace {
 public:
  // Throws TraceError when PATH cannot be opened for writing. Callers check first that it is a trace.
  explicit WritableTrace(const std::string& path);
  ~WritableTrace();
  WritableTrace(const WritableTrace&) = delete;
  WritableTrace& operator=(const WritableTrace&) = delete;

  void exec(const std::string& sql);  // throws TraceError naming the file and SQLite's reason
  sqlite3* handle() { return db_; }
  [[noreturn]] void fail();  // throws TraceError with SQLite's last error

  // Runs WRITE inside BEGIN IMMEDIATE ... COMMIT, rolling back when it throws.
  template <typename Write>
  void transaction(Write&& write) {
    exec("BEGIN IMMEDIATE");
    try {
      write();
      exec("COMMIT");
    } catch (...) {
      rollback();
      throw;
    }
  }

 private:
  void rollback();
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace gpuscope
