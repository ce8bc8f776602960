#include "core/db/sqlite_database.h"

#include <sqlite3.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "core/error.h"

namespace gpuscope {
namespace {

bool isDamaged(int code) { return code == SQLITE_CORRUPT || code == SQLITE_NOTADB || code == SQLITE_IOERR; }

[[noreturn]] void throwSqlite(sqlite3* db, const std::string& what) {
  const char* message = db ? sqlite3_errmsg(db) : "out of memory";
  int code = db ? (sqlite3_errcode(db) & 0xFF) : SQLITE_NOMEM;
  std::string hint = isDamaged(code) ? " (the file is truncated or damaged)" : "";
  throw TraceError(what + ": " + message + hint + ".");
}

void checkPathIsFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw TraceError(path + " does not exist.");
  if (fs::is_directory(status)) throw TraceError(path + " is a directory, not a trace file.");
  // A FIFO or device would block SQLite's first read for ever (or read a stream that never ends).
  if (!fs::is_regular_file(status))
    throw TraceError(path + " is not a regular file (a pipe or device), not a trace file.");
  if (fs::file_size(path, ec) == 0 && !ec) throw TraceError(path + " is empty, not a trace file.");
}

// Whether PATH's SQLite header says write-ahead logging (file format versions 2 at bytes 18 and 19).
bool isWalMode(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[20] = {};
  if (!in.read(header, sizeof header)) return false;
  return header[18] == 2 && header[19] == 2;
}

// A WAL-mode file opened normally gets -wal and -shm files created beside it (and fails on read-only
// media). Opened immutable, SQLite writes nothing; it then ignores a -wal file's unsaved pages, so a
// file that has some is refused rather than shown without them.
std::string walSafeUri(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto walSize = fs::file_size(path + "-wal", ec);
  if (!ec && walSize > 0)
    throw TraceError(path + " has unsaved changes in " + path +
                     "-wal; open it once with sqlite3 (which folds them in) and try again.");
  std::string uri = "file:";
  for (unsigned char c : path) {
    bool plain = std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~';
    if (plain) {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri + "?immutable=1";
}

void applySafetySettings(sqlite3* db, const std::string& path) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 256 * 1024 * 1024);
  // Reading the schema is the first real access: a file that is not SQLite fails here.
  char* error = nullptr;
  if (sqlite3_exec(db, "PRAGMA trusted_schema=OFF; SELECT count(*) FROM sqlite_schema;", nullptr, nullptr, &error) !=
      SQLITE_OK) {
    std::string reason = error ? error : "unknown error";
    sqlite3_free(error);
    bool damaged = (sqlite3_errcode(db) & 0xFF) == SQLITE_CORRUPT;
    throw TraceError(path +
                     (damaged ? " is a truncated or damaged SQLite file (" : " is not a readable SQLite trace file (") +
                     reason + ").");
  }
}

}  // namespace

std::string quoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throwSqlite(db_, "Reading the trace failed");
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

void Statement::bind(int index, int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
void Statement::bind(int index, double value) { sqlite3_bind_double(stmt_, index, value); }
void Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

int Statement::columnCount() const { return sqlite3_column_count(stmt_); }
bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
bool Statement::isInteger(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER; }
const char* storageClassName(int type) {
  switch (type) {
    case SQLITE_INTEGER:
      return "integer";
    case SQLITE_FLOAT:
      return "real";
    case SQLITE_TEXT:
      return "text";
    case SQLITE_BLOB:
      return "blob";
    default:
      return "null";
  }
}
const char* Statement::typeName(int column) const { return storageClassName(sqlite3_column_type(stmt_, column)); }
int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
Statement::IntegerRead Statement::readInteger(int column) const {
  sqlite3_value* value = sqlite3_column_value(stmt_, column);
  int type = sqlite3_value_type(value);
  return {type == SQLITE_NULL, type == SQLITE_INTEGER, sqlite3_value_int64(value)};
}
double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }
std::string_view Statement::text(int column) const {
  auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (!data) return {};
  return {data, static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

Database Database::openReadOnly(const std::string& path, Threading threading) {
  checkPathIsFile(path);
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READONLY | (threading == Threading::Shared ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX);
  std::string name = path;
  if (isWalMode(path)) {
    name = walSafeUri(path);
    flags |= SQLITE_OPEN_URI;
  }
  if (sqlite3_open_v2(name.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string reason = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw TraceError(path + " could not be opened (" + reason + ").");
  }
  Database database(db, path);
  applySafetySettings(db, path);
  return database;
}

Database Database::create(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string reason = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw TraceError(path + " could not be created (" + reason + ").");
  }
  return Database(db, path);
}

namespace {
constexpr int kWriterBusyTimeoutMs = 60000;
}  // namespace

Database Database::openWritable(const std::string& path) {
  checkPathIsFile(path);
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string reason = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw TraceError(path + " could not be opened for writing (" + reason + ").");
  }
  Database database(db, path);
  applySafetySettings(db, path);
  // A reader of the same file (the viewer's analysis or integrity check of the trace being written into) may
  // hold its read lock for a moment: wait for it rather than fail with "database is locked".
  sqlite3_busy_timeout(db, kWriterBusyTimeoutMs);
  return database;
}

void Database::attachReadOnly(const std::string& path, std::string_view schema) {
  checkPathIsFile(path);
  auto attach = prepare("ATTACH DATABASE ?1 AS " + quoteIdentifier(schema));
  attach.bind(1, walSafeUri(path) + "&mode=ro");
  attach.step();
}

void Database::detach(std::string_view schema) { exec("DETACH DATABASE " + quoteIdentifier(schema)); }

Database::Database(Database&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Database::~Database() { sqlite3_close_v2(db_); }

void Database::interruptWhen(const std::atomic<bool>* flag) {
  constexpr int kInstructionsPerPoll = 100'000;
  auto poll = [](void* f) -> int { return static_cast<const std::atomic<bool>*>(f)->load() ? 1 : 0; };
  sqlite3_progress_handler(db_, flag ? kInstructionsPerPoll : 0, flag ? +poll : nullptr,
                           const_cast<std::atomic<bool>*>(flag));
}

bool Database::hasTable(std::string_view table) const {
  auto stmt = prepare("SELECT 1 FROM sqlite_schema WHERE type='table' AND name=?1");
  stmt.bind(1, table);
  return stmt.step();
}

std::vector<std::string> Database::columnsOf(std::string_view table) const {
  auto stmt = prepare("SELECT name FROM pragma_table_info(?1)");
  stmt.bind(1, table);
  std::vector<std::string> columns;
  while (stmt.step()) columns.emplace_back(stmt.text(0));
  return columns;
}

void Database::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string reason = error ? error : "unknown error";
    sqlite3_free(error);
    throw TraceError("SQL failed on " + path_ + " (" + reason + ").");
  }
}

Statement Database::prepare(const std::string& sql) const {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
    throwSqlite(db_, "Preparing a query on " + path_ + " failed");
  }
  return Statement(db_, stmt);
}

int64_t Database::maxRowId(std::string_view table) const {
  auto stmt = prepare("SELECT max(rowid) FROM " + quoteIdentifier(table));
  return stmt.step() && !stmt.isNull(0) ? stmt.int64(0) : 0;
}

}  // namespace gpuscope
