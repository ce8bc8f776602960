#include "core/model/time_text.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace gpuscope {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::optional<double> nanosecondsPerUnit(std::string_view unit) {
  if (unit.empty() || unit == "ns") return 1.0;
  if (unit == "us" || unit == "\xC2\xB5s") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return std::nullopt;
}

}  // namespace

std::optional<TimeNs> parseDuration(std::string_view text) {
  text = trimmed(text);
  size_t numberEnd = 0;
  while (numberEnd < text.size() && (std::isdigit(static_cast<unsigned char>(text[numberEnd])) ||
                                     text[numberEnd] == '.' || (numberEnd == 0 && text[numberEnd] == '-')))
    ++numberEnd;
  if (numberEnd == 0) return std::nullopt;
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + numberEnd, value);
  if (error != std::errc() || end != text.data() + numberEnd) return std::nullopt;
  auto scale = nanosecondsPerUnit(trimmed(text.substr(numberEnd)));
  if (!scale) return std::nullopt;
  double ns = std::round(value * *scale);
  if (!std::isfinite(ns) || std::fabs(ns) > 9.2e18) return std::nullopt;
  return static_cast<TimeNs>(ns);
}

}  // namespace gpuscope
