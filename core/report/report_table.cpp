#include "core/report/report_table.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpuscope {
namespace {

std::string shortest(double value) {
  char text[64];
  auto [end, error] = std::to_chars(text, text + sizeof text, value);
  std::string result(text, error == std::errc() ? end : text);
  if (result.find_first_of(".e") == std::string::npos) result += ".0";
  return result;
}

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  if (value == 0.0) value = 0.0;  // never print "-0.0"
  if (decimals == kShortestDecimals) return shortest(value);
  int size = std::snprintf(nullptr, 0, "%.*f", decimals, value);
  std::string text(static_cast<size_t>(size) + 1, '\0');
  std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
  text.pop_back();
  return text;
}

}  // namespace

std::string cellText(const ReportCell& cell, const ReportColumn& column) {
  if (const auto* integer = std::get_if<int64_t>(&cell)) return std::to_string(*integer);
  if (const auto* real = std::get_if<double>(&cell)) return fixed(*real, column.decimals);
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return {};
}

}  // namespace gpuscope
