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

CellRows::CellRows(size_t columns, size_t capacity)
    : columns_(columns),
      capacity_(std::max<size_t>(capacity, 1)),
      cells_(std::make_unique<Cell[]>(columns_ * capacity_)) {}

void CellRows::addDouble(double value) {
  cells_[cellCount_++] = {Cell::Double, std::bit_cast<int64_t>(value), nullptr};
}

void CellRows::addText(std::string_view text) {
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

void CellRows::clear() {
  cellCount_ = 0;
  rows_ = 0;
  textBlock_ = 0;
  textUsed_ = 0;
}

size_t rowsPerStatement(sqlite3* db, size_t columns) {
  // 32766 parameters by default, 999 before SQLite 3.32.
  size_t maxParameters = static_cast<size_t>(std::max(1, sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1)));
  return std::clamp<size_t>(maxParameters / std::max<size_t>(columns, 1), 1, kMaxRowsPerStatement);
}

BulkInsert::BulkInsert(sqlite3* db, std::string_view table, const std::vector<std::string_view>& columns, bool replace)
    : db_(db),
      table_(table),
      verb_(replace ? "INSERT OR REPLACE INTO " : "INSERT INTO "),
      columnCount_(columns.size()),
      rowsPerStatement_(gpuscope::rowsPerStatement(db, columns.size())) {
  for (size_t i = 0; i < columns.size(); ++i) columns_ += (i ? ", " : "") + std::string(columns[i]);
  single_ = prepare(1);
}

BulkInsert::~BulkInsert() {
  sqlite3_finalize(single_);
  sqlite3_finalize(batch_);
}

BulkInsert::BulkInsert(BulkInsert&& other) noexcept
    : db_(other.db_),
      table_(std::move(other.table_)),
      columns_(std::move(other.columns_)),
      verb_(other.verb_),
      columnCount_(other.columnCount_),
      rowsPerStatement_(other.rowsPerStatement_),
      single_(std::exchange(other.single_, nullptr)),
      batch_(std::exchange(other.batch_, nullptr)) {}

sqlite3_stmt* BulkInsert::prepare(size_t rows) {
  std::string row = "(";
  for (size_t i = 0; i < columnCount_; ++i) row += i ? ",?" : "?";
  row += ")";
  std::string sql = std::string(verb_) + table_ + " (" + columns_ + ") VALUES ";
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

// Every parameter is bound for every row, so the statement never needs sqlite3_clear_bindings;
// text is SQLITE_STATIC because the copies outlive the step.
void BulkInsert::bindRow(sqlite3_stmt* stmt, const CellRows::Cell* cells, int firstParameter) {
  for (size_t i = 0; i < columnCount_; ++i) {
    const CellRows::Cell& cell = cells[i];
    int parameter = firstParameter + static_cast<int>(i);
    switch (cell.kind) {
      case CellRows::Cell::Int:
        sqlite3_bind_int64(stmt, parameter, cell.value);
        break;
      case CellRows::Cell::Null:
        sqlite3_bind_null(stmt, parameter);
        break;
      case CellRows::Cell::Double:
        sqlite3_bind_double(stmt, parameter, std::bit_cast<double>(cell.value));
        break;
      case CellRows::Cell::Text:
        sqlite3_bind_text(stmt, parameter, cell.text, static_cast<int>(cell.value), SQLITE_STATIC);
        break;
    }
  }
}

void BulkInsert::step(sqlite3_stmt* stmt) {
  int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (rc != SQLITE_DONE) throw TraceError(sqlite3_errmsg(db_));
}

void BulkInsert::write(CellRows& rows) {
  try {
    if (rows.rows() == rowsPerStatement_ && rowsPerStatement_ > 1) {
      if (!batch_) batch_ = prepare(rowsPerStatement_);
      for (size_t row = 0; row < rows.rows(); ++row)
        bindRow(batch_, rows.row(row), static_cast<int>(row * columnCount_) + 1);
      step(batch_);
    } else {
      for (size_t row = 0; row < rows.rows(); ++row) {
        bindRow(single_, rows.row(row), 1);
        step(single_);
      }
    }
  } catch (...) {
    rows.clear();
    throw;
  }
  rows.clear();
}

}  // namespace gpuscope
