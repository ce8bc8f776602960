#include "core/ncu/csv_reader.h"

#include <cctype>
#include <charconv>

#include "core/error.h"

namespace gpuscope {

std::vector<CsvRecord> parseCsv(std::string_view text) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  bool inQuotes = false;
  bool fieldStarted = false;  // something (even an empty quoted field) was read since the last separator
  size_t i = 0;
  auto endRecord = [&] {
    record.push_back(std::move(field));
    field.clear();
    records.push_back(std::move(record));
    record.clear();
    fieldStarted = false;
  };
  while (i < text.size()) {
    char c = text[i];
    if (inQuotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
      } else {
        field += c;
      }
      ++i;
      continue;
    }
    if (c == '"' && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      fieldStarted = false;
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      endRecord();
      ++i;
    } else if (c == '\n') {
      endRecord();
    } else {
      field += c;
      fieldStarted = true;
    }
    ++i;
  }
  if (inQuotes) throw TraceError("The CSV text ends inside a quoted field: the file is truncated or not CSV.");
  // The last record, unless the text ended with a line break.
  if (fieldStarted || !record.empty() || !field.empty()) endRecord();
  return records;
}

std::vector<std::string_view> csvPhysicalLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    auto line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    begin = end + 1;
  }
  return lines;
}

std::optional<double> parseCsvNumber(std::string_view cell) {
  while (!cell.empty() && std::isspace(static_cast<unsigned char>(cell.front()))) cell.remove_prefix(1);
  while (!cell.empty() && std::isspace(static_cast<unsigned char>(cell.back()))) cell.remove_suffix(1);
  if (cell.empty()) return std::nullopt;
  std::string plain;
  size_t i = 0;
  if (cell[i] == '+' || cell[i] == '-') plain += cell[i++];
  // Integer part: digits in groups; a ',' must be followed by exactly three digits.
  size_t digits = 0;
  while (i < cell.size()) {
    char c = cell[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      plain += c;
      ++digits;
      ++i;
    } else if (c == ',' && digits > 0 && i + 3 < cell.size() && std::isdigit(static_cast<unsigned char>(cell[i + 1])) &&
               std::isdigit(static_cast<unsigned char>(cell[i + 2])) &&
               std::isdigit(static_cast<unsigned char>(cell[i + 3])) &&
               (i + 4 == cell.size() || !std::isdigit(static_cast<unsigned char>(cell[i + 4])))) {
      ++i;
    } else {
      break;
    }
  }
  if (i < cell.size() && cell[i] == '.') {
    plain += cell[i++];
    while (i < cell.size() && std::isdigit(static_cast<unsigned char>(cell[i]))) {
      plain += cell[i++];
      ++digits;
    }
  }
  if (digits == 0) return std::nullopt;
  if (i < cell.size() && (cell[i] == 'e' || cell[i] == 'E')) {
    plain += cell[i++];
    if (i < cell.size() && (cell[i] == '+' || cell[i] == '-')) plain += cell[i++];
    size_t exponentDigits = 0;
    while (i < cell.size() && std::isdigit(static_cast<unsigned char>(cell[i]))) {
      plain += cell[i++];
      ++exponentDigits;
    }
    if (exponentDigits == 0) return std::nullopt;
  }
  if (i != cell.size()) return std::nullopt;
  // from_chars, not strtod: the GUI sets the user's locale, whose decimal point may be ','.
  const char* first = plain.c_str();
  if (*first == '+') ++first;
  double value = 0;
  auto [end, error] = std::from_chars(first, plain.c_str() + plain.size(), value);
  if (error != std::errc() || end != plain.c_str() + plain.size()) return std::nullopt;
  return value;
}

}  // namespace gpuscope
