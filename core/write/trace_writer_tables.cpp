// TraceWriter: rows of any declared table by column name, its strings, its indexes, and adding rows to a
// finished trace file.
#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "core/error.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"
#include "core/write/writer_state.h"

namespace gpuscope {

// The StringIds the file has, so intern() goes on with the ids that follow. A file gpuscope record was writing
// numbers them 0, 1, 2, ...; a finished file of another tool may not, and rows added to it take the ids after
// its largest.
void TraceWriter::loadStrings() {
  sqlite3_stmt* rows = nullptr;
  std::string sql = "SELECT id, value FROM " + std::string(table::kStringIds);
  if (sqlite3_prepare_v2(db_->db(), sql.c_str(), -1, &rows, nullptr) != SQLITE_OK) {
    sqlite3_finalize(rows);
    throw TraceError("Reading " + path_ + " failed: " + sqlite3_errmsg(db_->db()) + ".");
  }
  int64_t next = 0;
  while (sqlite3_step(rows) == SQLITE_ROW) {
    int64_t id = sqlite3_column_int64(rows, 0);
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(rows, 1));
    db_->strings.emplace(std::string(text ? text : ""), id);
    next = std::max(next, id + 1);
  }
  sqlite3_finalize(rows);
  if (!db_->appending && next != static_cast<int64_t>(db_->strings.size()))
    throw TraceError(path_ + "'s StringIds are not numbered 0, 1, 2, ...: it was not written by gpuscope record.");
  db_->nextStringId = next;
}

TraceWriter::TraceWriter(const std::string& path, Append) : path_(path) {
  options_.rowsPerTransaction = std::numeric_limits<size_t>::max();  // one transaction: all rows or none
  db_ = std::make_unique<Statements>();
  db_->appending = true;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path_, ec)) throw TraceError(path_ + " does not exist.");
  open();
  if (!tableExists(db_->db(), table::kStringIds))
    throw TraceError(path_ + " is not a trace file: it has no StringIds.");
  exec("BEGIN IMMEDIATE");
  prepareInserts(false);
  loadStrings();
  for (const TableSpec& spec : traceSchema())
    if (tableExists(db_->db(), spec.name)) db_->created.insert(spec.name);
}

std::unique_ptr<TraceWriter> TraceWriter::addTo(const std::string& path) {
  return std::unique_ptr<TraceWriter>(new TraceWriter(path, Append{}));
}

// The indexes of every table the file has (docs/DESIGN.md: on start, correlationId and globalTid).
void TraceWriter::createIndexes() {
  for (const TableSpec& spec : traceSchema()) {
    if (!db_->indexed.count(spec.name)) continue;
    for (const std::string& sql : createLaterIndexStatements(spec)) exec(sql);
  }
}

void TraceWriter::createTable(const TableSpec& spec) {
  for (const std::string& sql : createTableStatements(spec)) exec(sql);
  if (!spec.enumRows.empty()) rowCount_ += spec.enumRows.size();
  db_->created.insert(spec.name);
  db_->indexed.insert(spec.name);
}

int TraceWriter::tableRows(std::string_view table, std::vector<std::string_view> columns, RowConflict conflict) {
  const TableSpec& spec = tableSpec(table);
  if (!db_->created.count(spec.name)) createTable(spec);
  std::vector<bool> strings;
  for (std::string_view name : columns) {
    const ColumnSpec* column = spec.column(name);
    if (!column) throw std::logic_error("TraceWriter: " + std::string(table) + " declares no " + std::string(name));
    strings.push_back(column->role == ColumnRole::StringRef);
  }
  db_->tables.emplace_back(std::in_place, db_->db(), spec.name, columns, conflict == RowConflict::Replace);
  db_->pending.push_back(std::make_unique<CellRows>(columns.size(), db_->tables.back()->rowsPerStatement()));
  db_->laneTable.push_back(-1);
  db_->stringColumns.resize(db_->tables.size());
  db_->stringColumns.back() = std::move(strings);
  return static_cast<int>(db_->tables.size() - 1);
}

void TraceWriter::addRow(int rows, std::initializer_list<Cell> cells) {
  if (finished_) throw std::logic_error("TraceWriter: a row was appended after finish()");
  const std::vector<bool>& strings = db_->stringColumns.at(static_cast<size_t>(rows));
  CellRows& pending = *db_->pending[static_cast<size_t>(rows)];
  if (cells.size() != pending.columns()) throw std::logic_error("TraceWriter: a row of the wrong width");
  size_t column = 0;
  for (const Cell& cell : cells) {
    if (const auto* text = std::get_if<std::string_view>(&cell)) {
      // Text in a string-reference column is the string itself: the writer gives it its StringIds id.
      strings[column] ? pending.addInt(intern(*text)) : pending.addText(*text);
    } else if (const auto* number = std::get_if<int64_t>(&cell)) {
      pending.addInt(*number);
    } else if (const auto* real = std::get_if<double>(&cell)) {
      pending.addDouble(*real);
    } else {
      pending.addNull();
    }
    ++column;
  }
  if (pending.endRow()) writeRows(static_cast<size_t>(rows));
  ++rowCount_;
  commitIfDue();
}

}  // namespace gpuscope
