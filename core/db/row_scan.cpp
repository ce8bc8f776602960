#include "core/db/row_scan.h"

#include <sqlite3.h>

#include "core/error.h"

namespace gpuscope {
namespace {

constexpr const char* kRowFunction = "gpuscope_row";

struct ScanState {
  row_scan_detail::Callback callback;
  void* onRow;
  std::exception_ptr error;  // what onRow threw; SQLite only learns that the function failed
};

// The SQL function, called once per row with the row's values as arguments. C++ exceptions must not
// unwind through SQLite's C frames, so they are kept and the statement is failed instead.
void rowFunction(sqlite3_context* context, int count, sqlite3_value** values) {
  auto* state = static_cast<ScanState*>(sqlite3_user_data(context));
  try {
    state->callback(state->onRow, RowValues(values, count));
  } catch (...) {
    state->error = std::current_exception();
    sqlite3_result_error(context, "stopped by gpuscope", -1);
  }
}

}  // namespace

std::string_view RowValues::text(int column) const {
  auto* data = reinterpret_cast<const char*>(sqlite3_value_text(values_[column]));
  if (!data) return {};
  return {data, static_cast<size_t>(sqlite3_value_bytes(values_[column]))};
}

const char* RowValues::typeName(int column) const { return storageClassName(sqlite3_value_type(values_[column])); }

namespace row_scan_detail {

void run(const Database& db, const std::string& columns, std::string_view table, Callback callback, void* onRow) {
  ScanState state{callback, onRow, nullptr};
  // Not deterministic, so SQLite calls it for every row; direct-only, so no schema object can call it.
  if (sqlite3_create_function_v2(db.handle(), kRowFunction, -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, &state, rowFunction,
                                 nullptr, nullptr, nullptr) != SQLITE_OK)
    throw TraceError("Reading the trace failed (" + std::string(sqlite3_errmsg(db.handle())) + ").");
  auto unregister = [&db] {
    sqlite3_create_function_v2(db.handle(), kRowFunction, -1, SQLITE_UTF8, nullptr, nullptr, nullptr, nullptr, nullptr);
  };
  try {
    // count() makes SQLite evaluate the function once per row and return a single row at the end.
    auto stmt =
        db.prepare("SELECT count(" + std::string(kRowFunction) + "(" + columns + ")) FROM " + quoteIdentifier(table));
    stmt.step();
  } catch (...) {
    unregister();
    if (state.error) std::rethrow_exception(state.error);
    throw;
  }
  unregister();
}

}  // namespace row_scan_detail
}  // namespace gpuscope
