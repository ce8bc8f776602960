#include "core/write/bulk_insert.h"

#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

#include "core/error.h"

namespace gpuscope {
namespace {

// Rows per multi-row INSERT: past a few hundred the per-statement cost is gone and only the
// buffer grows.
constexpr size_t kMaxRowsPerStatement = 256;
constexpr size_t kTextBlockBytes = 64 * 1024;

// Bound parameters are never NULL pointers: SQLite would store a NULL instead of "".
const char kEmpty[] = "";

}  // namespace

BulkInsert::BulkInsert(sqlite3* db, std::string_view table, const std::vector<std::string_view>& columns)
    : db_(db), table_(table), columnCount_(columns.size()) {
  for (size_t i = 0; i < columns.size(); ++i) columns_ += (i ? ", " : "") + std::string(columns[i]);
  // SQLite caps the parameters of one statement (32766 by default, 999 before 3.32).
  size_t maxParameters = static_cast<size_t>(std::max(1, sqlite3_limit(db_, SQLITE_LIMIT_VARIABLE_NUMBER, -1)));
  rowsPerStatement_ = std::clamp<size_t>(maxParameters / std::max<size_t>(columnCount_, 1), 1, kMaxRowsPerStatement);
  single_ = prepare(1);
  cells_ = std::make_unique<Cell[]>(columnCount_ * rowsPerStatement_);
}

BulkInsert::~BulkInsert() {
  sqlite3_finalize(single_);
  sqlite3_finalize(batch_);
}

BulkInsert::BulkInsert(BulkInsert&& other) noexcept
    : db_(other.db_),
      table_(std::move(other.table_)),
      columns_(std::move(other.columns_)),
      columnCount_(other.columnCount_),
      rowsPerStatement_(other.rowsPerStatement_),
      single_(std::exchange(other.single_, nullptr)),
      batch_(std::exchange(other.batch_, nullptr)),
      cells_(std::move(other.cells_)),
      cellCount_(std::exchange(other.cellCount_, 0)),
      pendingRows_(std::exchange(other.pendingRows_, 0)),
      textBlocks_(std::move(other.textBlocks_)),
      textBlock_(other.textBlock_),
      textUsed_(other.textUsed_) {}

sqlite3_stmt* BulkInsert::prepare(size_t rows) {
  std::string row = "(";
  for (size_t i = 0; i < columnCount_; ++i) row += i ? ",?" : "?";
  row += ")";
  std::string sql = "INSERT INTO " + table_ + " (" + columns_ + ") VALUES ";
  sql.reserve(sql.size() + rows * (row.size() + 1));
  for (size_t i = 0; i < rows; ++i) {
    if (i) sql += ",";
    sql += row;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
      SQLITE_OK) {
    throw TraceError(sqlite3_errmsg(db_));
  }
  return stmt;
}

void BulkInsert::addDouble(double value) {
  cells_[cellCount_++] = {Cell::Double, std::bit_cast<int64_t>(value), nullptr};
}

void BulkInsert::addText(std::string_view text) {
  if (text.empty()) {
    cells_[cellCount_++] = {Cell::Text, 0, kEmpty};
    return;
  }
  if (textBlock_ >= textBlocks_.size() || textBlocks_[textBlock_].size - textUsed_ < text.size()) {
    if (textBlock_ < textBlocks_.size()) ++textBlock_;
    if (textBlock_ == textBlocks_.size()) textBlocks_.emplace_back();
    TextBlock& block = textBlocks_[textBlock_];
    if (block.size < text.size()) {  // unused so far: replace it by one large enough
      block.size = std::max(kTextBlockBytes, text.size());
      block.data = std::make_unique<char[]>(block.size);
    }
    textUsed_ = 0;
  }
  char* copy = textBlocks_[textBlock_].data.get() + textUsed_;
  std::memcpy(copy, text.data(), text.size());
  textUsed_ += text.size();
  cells_[cellCount_++] = {Cell::Text, static_cast<int64_t>(text.size()), copy};
}

// Every parameter is bound for every row, so the statement never needs sqlite3_clear_bindings;
// text is SQLITE_STATIC because the copies outlive the step.
void BulkInsert::bindRow(sqlite3_stmt* stmt, const Cell* cells, int firstParameter) {
  for (size_t i = 0; i < columnCount_; ++i) {
    const Cell& cell = cells[i];
    int parameter = firstParameter + static_cast<int>(i);
    switch (cell.kind) {
      case Cell::Int:
        sqlite3_bind_int64(stmt, parameter, cell.value);
        break;
      case Cell::Null:
        sqlite3_bind_null(stmt, parameter);
        break;
      case Cell::Double:
        sqlite3_bind_double(stmt, parameter, std::bit_cast<double>(cell.value));
        break;
      case Cell::Text:
        sqlite3_bind_text(stmt, parameter, cell.text, static_cast<int>(cell.value), SQLITE_STATIC);
        break;
    }
  }
}

void BulkInsert::step(sqlite3_stmt* stmt) {
  int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (rc != SQLITE_DONE) {
    std::string reason = sqlite3_errmsg(db_);
    clear();
    throw TraceError(reason);
  }
}

void BulkInsert::writeFullBatch() {
  if (rowsPerStatement_ == 1) {
    bindRow(single_, cells_.get(), 1);
    step(single_);
  } else {
    if (!batch_) batch_ = prepare(rowsPerStatement_);
    for (size_t row = 0; row < rowsPerStatement_; ++row)
      bindRow(batch_, cells_.get() + row * columnCount_, static_cast<int>(row * columnCount_) + 1);
    step(batch_);
  }
  clear();
}

void BulkInsert::flush() {
  for (size_t row = 0; row < pendingRows_; ++row) {
    bindRow(single_, cells_.get() + row * columnCount_, 1);
    step(single_);
  }
  clear();
}

void BulkInsert::clear() {
  cellCount_ = 0;
  pendingRows_ = 0;
  textBlock_ = 0;
  textUsed_ = 0;
}

}  // namespace gpuscope
