#pragma once
// Writing a ReportTable: CSV as nsys prints it, an aligned table for terminals, and JSON.
#include <nlohmann/json.hpp>
#include <string>

#include "core/report/report_table.h"

namespace gpuscope {

// CSV with a header row, "\n" line ends, fields quoted only when they hold a comma, quote or line break
// (quotes doubled): byte-identical to `nsys stats --format csv` for the same cells.
std::string formatCsv(const ReportTable& table);

// Columns padded to their widest cell: numbers right-aligned with thousands separators, text left-aligned,
// a dashed rule under the header. With MAX_WIDTH (terminal columns; 0: no limit) the widest text columns
// narrow, together, until every line fits, and cells longer than their column lose their middle to "…"
// (elideMiddle); numbers are never cut, and no text column narrows below kNarrowestTextColumn. A table that
// still does not fit is printed a record at a time (as psql's expanded display), each cell on a line of its
// own after its column's title, so that no line is wider than MAX_WIDTH but for an unbreakable title.
std::string formatTextTable(const ReportTable& table, size_t maxWidth = 0);
inline constexpr size_t kNarrowestTextColumn = 16;

// {"name", "title", "columns": [titles], "rows": [{title: value}]} with numbers as JSON numbers (reals as
// printed, i.e. rounded to the column's decimals) and empty cells as null.
nlohmann::ordered_json reportJson(const ReportTable& table);

// VALUE as JSON text indented by 2. Names from a file need not be valid UTF-8: their bad bytes become
// U+FFFD instead of failing the whole output (nlohmann's default throws type_error.316).
template <class Json>
std::string jsonText(const Json& value) {
  return value.dump(2, ' ', false, Json::error_handler_t::replace);
}

}  // namespace gpuscope
