#pragma once
// SourceRow: the columns of one row of a trace-file table, fetched by rowid for the details of an event.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

class Database;

class SourceRow {
 public:
  // Reads COLUMNS of TABLE's row ROWID, skipping those the file's table lacks (a missing table or row
  // leaves the row empty). Throws TraceError on a database error.
  SourceRow(const Database& db, std::string_view table, int64_t rowid, const std::vector<std::string_view>& columns);

  bool found() const { return found_; }
  // The value of a column that the file has and that is not NULL.
  std::optional<int64_t> integer(std::string_view column) const;
  std::optional<double> real(std::string_view column) const;
  std::optional<std::string> text(std::string_view column) const;

 private:
  struct Value {
    int64_t integer = 0;
    double real = 0.0;
    std::string text;
  };
  const Value* value(std::string_view column) const;

  bool found_ = false;
  std::map<std::string, Value, std::less<>> values_;  // non-NULL columns only
};

// The text of a StringIds id, if the file has it.
std::optional<std::string> lookupString(const Database& db, int64_t id);
// The label of an id in an ENUM_* table (its `label` column), if the file has it.
std::optional<std::string> lookupEnumLabel(const Database& db, std::string_view enumTable, int64_t id);

}  // namespace gpuscope
