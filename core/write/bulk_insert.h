#pragma once
// BulkInsert: appends rows to one table of a database being written, many rows per INSERT.
//
// A one-row INSERT pays SQLite's per-statement cost (opening the table's cursor, checking the
// transaction, resetting the program) for every row; that was most of the writer's time. Rows are
// buffered here and written kMaxRowsPerStatement at a time through one multi-row INSERT; the rest
// (fewer than a full batch, at a commit) go through a one-row statement.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace gpuscope {

class BulkInsert {
 public:
  // TABLE's COLUMNS are bound in the given order. DB must outlive this.
  BulkInsert(sqlite3* db, std::string_view table, const std::vector<std::string_view>& columns);
  ~BulkInsert();
  BulkInsert(BulkInsert&& other) noexcept;
  BulkInsert& operator=(BulkInsert&&) = delete;
  BulkInsert(const BulkInsert&) = delete;
  BulkInsert& operator=(const BulkInsert&) = delete;

  // The cells of the next row, in column order; endRow() after the last one.
  void addInt(int64_t value) { cells_[cellCount_++] = {Cell::Int, value, nullptr}; }
  void addDouble(double value);
  void addNull() { cells_[cellCount_++] = {Cell::Null, 0, nullptr}; }
  // TEXT is copied: it only has to live for the call.
  void addText(std::string_view text);
  // Writes the buffered rows once a full statement's worth is waiting. Throws TraceError with
  // SQLite's reason on a database error (disk full); the buffered rows are then dropped.
  void endRow() {
    if (++pendingRows_ == rowsPerStatement_) writeFullBatch();
  }

  // Writes every buffered row (before a commit).
  void flush();
  size_t pendingRows() const { return pendingRows_; }
  // Cells per row; a caller adding more before endRow() would write past the buffer.
  size_t columnCount() const { return columnCount_; }

 private:
  struct Cell {
    enum Kind : uint8_t { Null, Int, Double, Text };
    Kind kind;
    int64_t value;     // Int; Double (bit pattern); Text (length)
    const char* text;  // Text: into one of textBlocks_
  };

  sqlite3_stmt* prepare(size_t rows);
  void writeFullBatch();
  void bindRow(sqlite3_stmt* stmt, const Cell* cells, int firstParameter);
  void step(sqlite3_stmt* stmt);
  void clear();

  sqlite3* db_;
  std::string table_;
  std::string columns_;  // "a, b, c"
  size_t columnCount_;
  size_t rowsPerStatement_;
  sqlite3_stmt* single_ = nullptr;
  sqlite3_stmt* batch_ = nullptr;  // prepared on first use: most tables never fill one
  // A full statement's cells, written in place without the bounds checks of push_back (they were
  // a sixth of the writer's time): every row has exactly columnCount_ cells.
  std::unique_ptr<Cell[]> cells_;
  size_t cellCount_ = 0;
  size_t pendingRows_ = 0;
  // Copies of the text cells of the buffered rows, in blocks that never move while in use; kept
  // for the next rows once written.
  struct TextBlock {
    std::unique_ptr<char[]> data;
    size_t size = 0;
  };
  std::vector<TextBlock> textBlocks_;
  size_t textBlock_ = 0;  // the block being filled
  size_t textUsed_ = 0;   // bytes of it in use
};

}  // namespace gpuscope
