#pragma once
// Database and Statement: a small RAII wrapper over SQLite that opens untrusted files safely.
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace gpuscope {

class Statement {
 public:
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Advances to the next row; false when done. Throws TraceError on a database error.
  bool step();
  void reset();
  void bind(int index, int64_t value);
  void bind(int index, double value);
  void bind(int index, std::string_view value);

  int columnCount() const;
  bool isNull(int column) const;
  bool isInteger(int column) const;
  // SQLite's storage class of the value: "integer", "real", "text", "blob" or "null".
  const char* typeName(int column) const;
  int64_t int64(int column) const;
  // A column read once, for hot loops: whether it is NULL, whether it is an integer, and its value as
  // int64() converts it. (Each isNull/isInteger/int64 call goes through SQLite's API entry again.)
  struct IntegerRead {
    bool null;
    bool integer;
    int64_t value;
  };
  IntegerRead readInteger(int column) const;
  double real(int column) const;
  std::string_view text(int column) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// Whether a connection may be used from several threads (serialized) or from one thread only.
enum class Threading { Shared, SingleThread };

class Database {
 public:
  // Opens an untrusted file read-only: defensive mode, trusted_schema off, no extensions.
  // Throws TraceError with one sentence when the path is missing, a directory, or not SQLite.
  // SingleThread skips SQLite's per-call mutex (a quarter of a scan's time) for one-thread readers.
  static Database openReadOnly(const std::string& path, Threading threading = Threading::Shared);
  // Creates (replacing) a writable database, for the trace writer.
  static Database create(const std::string& path);
  // Opens a file gpuscope wrote read-write, with openReadOnly's safety settings and URI names allowed (so
  // that attachReadOnly can attach by URI): for adding rows to it, as merge does.
  static Database openWritable(const std::string& path);

  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  bool hasTable(std::string_view table) const;
  std::vector<std::string> columnsOf(std::string_view table) const;
  void exec(const std::string& sql);
  Statement prepare(const std::string& sql) const;
  // From now on, a statement running on this connection stops (step throws TraceError) soon after
  // *FLAG becomes true. FLAG must outlive the connection; nullptr turns this off.
  void interruptWhen(const std::atomic<bool>* flag);
  // Attaches the untrusted file PATH as SCHEMA, read-only and immutable, so nothing is written beside it.
  // Throws TraceError with one sentence when it cannot. Needs a connection from openWritable.
  void attachReadOnly(const std::string& path, std::string_view schema);
  void detach(std::string_view schema);
  // Largest rowid of a table (0 when empty): a cheap size estimate for progress.
  int64_t maxRowId(std::string_view table) const;
  const std::string& path() const { return path_; }
  // The connection, for core/db's own helpers (row_scan) that call SQLite directly.
  sqlite3* handle() const { return db_; }

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
};

// SQLite's storage class of a value of fundamental type TYPE (SQLITE_INTEGER ...): "integer", "real", "text",
// "blob" or "null". One home for the words every "a text value where a number belongs" sentence uses.
const char* storageClassName(int type);

// NAME as an SQL identifier: in double quotes, a double quote inside it doubled.
std::string quoteIdentifier(std::string_view name);

}  // namespace gpuscope
