#pragma once
// forEachRow: a whole-table read in which SQLite hands each row to C++ from inside its own loop, through
// an application-defined SQL function, instead of one sqlite3_column_* API entry per value. Each such
// entry checks the statement, takes and leaves the (absent) mutex and checks for a failed malloc; at 10M
// events that was a fifth of the loader's scan time, and reading the function's arguments skips it.
#include <sqlite3.h>

#include <exception>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/db/sqlite_database.h"

namespace gpuscope {

// One row's values, valid only during the callback that receives them. The two readers every value meets
// are inline: at 10M events a call of our own around SQLite's two per value cost a tenth of the scans.
class RowValues {
 public:
  RowValues(sqlite3_value** values, int count) : values_(values), count_(count) {}
  int size() const { return count_; }
  bool isNull(int column) const { return sqlite3_value_type(values_[column]) == SQLITE_NULL; }
  Statement::IntegerRead readInteger(int column) const {
    sqlite3_value* value = values_[column];
    int type = sqlite3_value_type(value);
    if (type == SQLITE_NULL) return {true, false, 0};
    return {false, type == SQLITE_INTEGER, sqlite3_value_int64(value)};
  }
  std::string_view text(int column) const;
  // SQLite's storage class of the value: "integer", "real", "text", "blob" or "null".
  const char* typeName(int column) const;

 private:
  sqlite3_value** values_;
  int count_;
};

// Calls onRow(row) for each row of `SELECT columns FROM table`, in the table's order. An exception thrown by
// onRow stops the scan and is rethrown here; a database error throws TraceError as Statement::step does.
template <class OnRow>
void forEachRow(const Database& db, const std::string& columns, std::string_view table, OnRow&& onRow);

namespace row_scan_detail {
using Callback = void (*)(void* onRow, const RowValues& row);
void run(const Database& db, const std::string& columns, std::string_view table, Callback callback, void* onRow);
}  // namespace row_scan_detail

template <class OnRow>
void forEachRow(const Database& db, const std::string& columns, std::string_view table, OnRow&& onRow) {
  auto callback = [](void* state, const RowValues& row) {
    (*static_cast<std::remove_reference_t<OnRow>*>(state))(row);
  };
  row_scan_detail::run(db, columns, table, callback, const_cast<void*>(static_cast<const void*>(&onRow)));
}

}  // namespace gpuscope
