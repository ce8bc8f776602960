#include "core/report/report_format.h"

#include <algorithm>
#include <cstdlib>

#include "core/text/elide.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

void appendCsvRow(std::string& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csvField(fields[i]);
  }
  out += '\n';
}

bool isNumber(const ReportCell& cell) {
  return std::holds_alternative<int64_t>(cell) || std::holds_alternative<double>(cell);
}

// A column is numeric when every non-empty cell in it is a number.
std::vector<bool> numericColumns(const ReportTable& table) {
  std::vector<bool> numeric(table.columns.size(), true);
  for (const auto& row : table.rows) {
    for (size_t c = 0; c < row.size() && c < numeric.size(); ++c) {
      if (!std::holds_alternative<std::monostate>(row[c]) && !isNumber(row[c])) numeric[c] = false;
    }
  }
  return numeric;
}

// TEXT in WIDTH columns: elided in the middle when longer, padded on the left (RIGHT) or the right.
std::string fitted(const std::string& text, size_t width, bool right) {
  std::string shown = elideMiddle(text, width);
  size_t used = displayWidth(shown);
  std::string pad(width > used ? width - used : 0, ' ');
  return right ? pad + shown : shown + pad;
}

void appendTextRow(std::string& out, const std::vector<std::string>& cells, const std::vector<size_t>& widths,
                   const std::vector<bool>& right) {
  std::string line;
  for (size_t c = 0; c < cells.size(); ++c) line += (c ? "  " : " ") + fitted(cells[c], widths[c], right[c]);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out += line + '\n';
}

// The width of a line of columns WIDTHS: one space before the first, two between.
size_t lineWidth(const std::vector<size_t>& widths) {
  size_t total = widths.empty() ? 0 : 2 * widths.size() - 1;
  for (size_t width : widths) total += width;
  return total;
}

// Narrows the text columns (not RIGHT) of WIDTHS to one cap, the widest first, until a line of them (one
// space before the first, two between) fits MAX_WIDTH or the cap is down to kNarrowestTextColumn.
void fitWidths(std::vector<size_t>& widths, const std::vector<bool>& right, size_t maxWidth) {
  if (maxWidth == 0 || widths.empty()) return;
  size_t total = lineWidth(widths);
  size_t widest = 0;
  for (size_t c = 0; c < widths.size(); ++c)
    if (!right[c]) widest = std::max(widest, widths[c]);
  // The largest cap that saves enough: lowering it by one saves a column per text column above it.
  size_t cap = widest;
  size_t saved = 0;
  while (total - saved > maxWidth && cap > kNarrowestTextColumn) {
    --cap;
    for (size_t c = 0; c < widths.size(); ++c) saved += !right[c] && widths[c] > cap ? 1 : 0;
  }
  for (size_t c = 0; c < widths.size(); ++c) {
    if (!right[c]) widths[c] = std::min(widths[c], cap);
  }
}

// The table one record after another, each cell a line "title  value" under a "-[ row N ]" rule: the layout
// of psql's expanded display, for a table whose columns cannot fit MAX_WIDTH side by side. Values longer than
// the line lose their middle; cells with no value are left out.
std::string formatRecords(const ReportTable& table, const std::vector<std::vector<std::string>>& cells,
                          size_t maxWidth) {
  size_t titleWidth = 0;
  for (const auto& column : table.columns) titleWidth = std::max(titleWidth, displayWidth(column.title));
  size_t valueWidth = std::max(kNarrowestTextColumn, maxWidth > titleWidth + 3 ? maxWidth - titleWidth - 3 : 0);
  std::string out;
  for (size_t r = 0; r < cells.size(); ++r) {
    std::string rule = " -[ row " + std::to_string(r + 1) + " of " + std::to_string(cells.size()) + " ]";
    size_t ruleWidth = std::min(maxWidth, titleWidth + 3 + valueWidth);
    out += rule + std::string(ruleWidth > rule.size() ? ruleWidth - rule.size() : 0, '-') + '\n';
    for (size_t c = 0; c < cells[r].size(); ++c) {
      if (cells[r][c].empty()) continue;
      out +=
          ' ' + fitted(table.columns[c].title, titleWidth, false) + "  " + elideMiddle(cells[r][c], valueWidth) + '\n';
    }
  }
  return out;
}

}  // namespace

std::string formatCsv(const ReportTable& table) {
  std::string out;
  std::vector<std::string> fields;
  for (const auto& column : table.columns) fields.push_back(column.title);
  appendCsvRow(out, fields);
  for (const auto& row : table.rows) {
    fields.clear();
    for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c)
      fields.push_back(cellText(row[c], table.columns[c]));
    appendCsvRow(out, fields);
  }
  return out;
}

std::string formatTextTable(const ReportTable& table, size_t maxWidth) {
  auto right = numericColumns(table);
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths;
  for (const auto& column : table.columns) widths.push_back(displayWidth(column.title));
  for (const auto& row : table.rows) {
    auto& line = cells.emplace_back();
    for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c) {
      auto text = cellText(row[c], table.columns[c]);
      line.push_back(isNumber(row[c]) ? withThousands(text) : text);
      widths[c] = std::max(widths[c], displayWidth(line.back()));
    }
  }
  fitWidths(widths, right, maxWidth);
  if (maxWidth > 0 && lineWidth(widths) > maxWidth && !cells.empty()) return formatRecords(table, cells, maxWidth);
  std::string out;
  std::vector<std::string> header, rule;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    header.push_back(table.columns[c].title);
    rule.emplace_back(widths[c], '-');
  }
  appendTextRow(out, header, widths, right);
  appendTextRow(out, rule, widths, right);
  for (const auto& line : cells) appendTextRow(out, line, widths, right);
  return out;
}

nlohmann::ordered_json reportJson(const ReportTable& table) {
  nlohmann::ordered_json json;
  json["name"] = table.name;
  json["title"] = table.title;
  auto titles = nlohmann::ordered_json::array();
  for (const auto& column : table.columns) titles.push_back(column.title);
  json["columns"] = titles;
  auto rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c) {
      const auto& title = table.columns[c].title;
      const auto& cell = row[c];
      if (const auto* integer = std::get_if<int64_t>(&cell))
        object[title] = *integer;
      else if (std::holds_alternative<double>(cell))
        object[title] = std::strtod(cellText(cell, table.columns[c]).c_str(), nullptr);
      else if (const auto* text = std::get_if<std::string>(&cell))
        object[title] = *text;
      else
        object[title] = nullptr;
    }
    rows.push_back(std::move(object));
  }
  json["rows"] = rows;
  return json;
}

}  // namespace gpuscope
