#pragma once
// ReportTable: a report as typed columns and cells, so CSV, terminal and JSON output share one source.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gpuscope {

// A cell: empty (SQL NULL), an integer, a real printed with its column's decimals, or text.
using ReportCell = std::variant<std::monostate, int64_t, double, std::string>;

// A column's decimals for reals printed as Python and pandas print floats: the shortest text that
// reads back as the same double, with at least one digit after the point ("1974919.0", "0.57").
inline constexpr int kShortestDecimals = -1;

struct ReportColumn {
  std::string title;
  int decimals = 1;  // digits after the point for real cells, or kShortestDecimals
};

struct ReportTable {
  std::string name;   // the report's id, e.g. "cuda_api_sum"
  std::string title;  // what it is, e.g. "CUDA API Summary"
  std::vector<ReportColumn> columns;
  std::vector<std::vector<ReportCell>> rows;
};

// A cell's text as the nsys CSV prints it: "" for empty, integers in full, reals in fixed notation with
// the column's decimals (correctly rounded, ties to even, as printf does).
std::string cellText(const ReportCell& cell, const ReportColumn& column);

// Empty cell when the optional value is absent.
template <typename T>
ReportCell optionalCell(bool present, T value) {
  // An if rather than a ternary of two variants: GCC 12 reports a false maybe-uninitialized there.
  ReportCell cell;
  if (present) cell = value;
  return cell;
}

// A rate or a peak in units of 10^9 (GFLOP/s, GB/s); an empty cell when it is not positive (not measured).
inline ReportCell gigaCell(double value) { return optionalCell(value > 0, value / 1e9); }

}  // namespace gpuscope
