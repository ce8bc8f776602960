#pragma once
// CellRows and BulkInsert: rows of one table buffered as cells, then written many rows per INSERT.
//
// A one-row INSERT pays SQLite's per-statement cost (opening the table's cursor, checking the
// transaction, resetting the program) for every row; that was most of the writer's time. Rows are
// collected in a CellRows and a full one is written through one multi-row INSERT; fewer rows (at a
// commit) go through a one-row statement. A CellRows holds plain values and its own copies of the
// text, so it can be filled on one thread and written on another.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace gpuscope {

class CellRows {
 public:
  struct Cell {
    enum Kind : uint8_t { Null, Int, Double, Text };
    Kind kind;
    int64_t value;     // Int; Double (bit pattern); Text (length)
    const char* text;  // Text: into one of textBlocks_
  };

  CellRows(size_t columns, size_t capacity);

  // The cells of the next row, in column order; endRow() after the last one. Every row has
  // exactly columns() cells: the cells are written in place, without bounds checks (a
  // push_back's were a sixth of the writer's time).
  void addInt(int64_t value) { cells_[cellCount_++] = {Cell::Int, value, nullptr}; }
  void addDouble(double value);
  void addNull() { cells_[cellCount_++] = {Cell::Null, 0, nullptr}; }
  // TEXT is copied: it only has to live for the call.
  void addText(std::string_view text);
  // True once the rows fill the capacity: they must be written before the next row.
  bool endRow() { return ++rows_ == capacity_; }

  size_t rows() const { return rows_; }
  size_t columns() const { return columns_; }
  size_t capacity() const { return capacity_; }
  const Cell* row(size_t index) const { return cells_.get() + index * columns_; }
  // Forgets the rows, keeping the memory for the next ones.
  void clear();

 private:
  size_t columns_;
  size_t capacity_;
  std::unique_ptr<Cell[]> cells_;
  size_t cellCount_ = 0;
  size_t rows_ = 0;
  // Copies of the text cells, in blocks that never move while in use; kept after clear().
  struct TextBlock {
    std::unique_ptr<char[]> data;
    size_t size = 0;
  };
  std::vector<TextBlock> textBlocks_;
  size_t textBlock_ = 0;  // the block being filled
  size_t textUsed_ = 0;   // bytes of it in use
};

// Rows per multi-row INSERT for a table of COLUMNS columns on DB (SQLite caps the parameters of
// one statement).
size_t rowsPerStatement(sqlite3* db, size_t columns);

class BulkInsert {
 public:
  // TABLE's COLUMNS are bound in the given order. DB must outlive this. REPLACE: a row that repeats a unique
  // key replaces the one there (INSERT OR REPLACE).
  BulkInsert(sqlite3* db, std::string_view table, const std::vector<std::string_view>& columns, bool replace = false);
  ~BulkInsert();
  BulkInsert(BulkInsert&& other) noexcept;
  BulkInsert& operator=(BulkInsert&&) = delete;
  BulkInsert(const BulkInsert&) = delete;
  BulkInsert& operator=(const BulkInsert&) = delete;

  size_t columnCount() const { return columnCount_; }
  size_t rowsPerStatement() const { return rowsPerStatement_; }
  // Writes ROWS (of this table's width) and clears them, also when a database error (disk full)
  // throws TraceError with SQLite's reason.
  void write(CellRows& rows);

 private:
  sqlite3_stmt* prepare(size_t rows);
  void bindRow(sqlite3_stmt* stmt, const CellRows::Cell* cells, int firstParameter);
  void step(sqlite3_stmt* stmt);

  sqlite3* db_;
  std::string table_;
  std::string columns_;  // "a, b, c"
  std::string_view verb_;
  size_t columnCount_;
  size_t rowsPerStatement_;
  sqlite3_stmt* single_ = nullptr;
  sqlite3_stmt* batch_ = nullptr;  // prepared on first use: most tables never fill one
};

}  // namespace gpuscope
