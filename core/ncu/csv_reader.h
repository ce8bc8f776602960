#pragma once
// An RFC 4180 CSV reader (quoted fields, doubled quotes, embedded commas and line breaks) and the number
// syntax of Nsight Compute's CSV cells ("1,234,567.5", "n/a").
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

using CsvRecord = std::vector<std::string>;

// Reads records one at a time from a stream, by parseCsv's rules: memory holds one record, not the input.
class CsvReader {
 public:
  explicit CsvReader(std::istream& in) : in_(in) {}
  // The next record into RECORD; false at the end of the input. Throws TraceError on an unclosed quote.
  bool next(CsvRecord& record);

 private:
  std::istream& in_;
};

// Every record of TEXT. Records end at LF or CRLF outside quotes; a field that starts with a quote runs to
// the matching quote, with "" standing for one quote; characters after a closing quote and before the next
// separator are kept, as spreadsheet programs do. A blank line is a record with one empty field. A quote
// left open at the end of the text throws TraceError.
std::vector<CsvRecord> parseCsv(std::string_view text);

// A number as ncu prints it: optional sign, digits with optional ',' thousands separators, optional
// fraction and exponent; surrounding spaces allowed. Empty, "n/a" and anything else give nullopt.
std::optional<double> parseCsvNumber(std::string_view cell);

}  // namespace gpuscope
