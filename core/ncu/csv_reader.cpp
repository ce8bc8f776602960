#include "core/ncu/csv_reader.h"

#include <cctype>
#include <charconv>
#include <sstream>

#include "core/error.h"

namespace gpuscope {

bool CsvReader::next(CsvRecord& record) {
  using Traits = std::istream::traits_type;
  record.clear();
  std::streambuf* in = in_.rdbuf();
  std::string field;
  bool inQuotes = false;
  bool fieldStarted = false;  // something (even an empty quoted field) was read since the last separator
  for (auto c = in->sbumpc(); !Traits::eq_int_type(c, Traits::eof()); c = in->sbumpc()) {
    if (inQuotes) {
      if (c == '"') {
        if (in->sgetc() == '"') {
          field += '"';
          in->sbumpc();
          continue;
        }
        inQuotes = false;
      } else {
        field += Traits::to_char_type(c);
      }
      continue;
    }
    if (c == '"' && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      fieldStarted = false;
    } else if (c == '\r' && in->sgetc() == '\n') {
      in->sbumpc();
      record.push_back(std::move(field));
      return true;
    } else if (c == '\n') {
      record.push_back(std::move(field));
      return true;
    } else {
      field += Traits::to_char_type(c);
      fieldStarted = true;
    }
  }
  if (inQuotes) throw TraceError("The CSV text ends inside a quoted field: the file is truncated or not CSV.");
  // The last record, unless the text ended with a line break.
  if (!fieldStarted && record.empty() && field.empty()) return false;
  record.push_back(std::move(field));
  return true;
}

std::vector<CsvRecord> parseCsv(std::string_view text) {
  std::istringstream in{std::string(text)};
  CsvReader reader(in);
  std::vector<CsvRecord> records;
  CsvRecord record;
  while (reader.next(record)) records.push_back(std::move(record));
  return records;
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
