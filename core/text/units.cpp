#include "core/text/units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace gpuscope {
namespace {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// "%.*f" of VALUE with trailing zeros (and a bare point) removed.
std::string trimmed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

// Digits after the point that give SIGNIFICANT digits for VALUE (|value| in [1, 1000)).
int decimalsFor(double value, int significant) {
  int integerDigits = static_cast<int>(std::floor(std::log10(std::abs(value)))) + 1;
  return std::max(0, significant - integerDigits);
}

}  // namespace

std::string formatDuration(int64_t ns) {
  double magnitude = ns < 0 ? -static_cast<double>(ns) : static_cast<double>(ns);
  if (magnitude < 1e3) return std::to_string(ns) + " ns";
  if (magnitude < 1e6) return fixed(static_cast<double>(ns) / 1e3, 3) + " us";
  if (magnitude < 1e9) return fixed(static_cast<double>(ns) / 1e6, 3) + " ms";
  return fixed(static_cast<double>(ns) / 1e9, 3) + " s";
}

std::string formatBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? std::to_string(bytes) + " B" : fixed(value, 2) + " " + units[unit];
}

std::string formatCount(uint64_t count) { return withThousands(std::to_string(count)); }

std::string withThousands(std::string_view number) {
  if (number.empty()) return {};
  size_t begin = number.front() == '-' ? 1 : 0;
  size_t end = std::min(number.find('.'), number.size());
  std::string out(number.substr(0, begin));
  for (size_t i = begin; i < end; ++i) {
    out += number[i];
    size_t left = end - i - 1;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  return out + std::string(number.substr(end));
}

std::string engineeringText(double value, std::string_view unit, int significant) {
  std::string suffix = std::string(" ") + std::string(unit);
  if (value == 0 || !std::isfinite(value)) return (std::isfinite(value) ? "0" : "?") + suffix;
  significant = std::max(significant, 1);
  static constexpr std::array<const char*, 11> kPrefixes = {"p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  int exponent = static_cast<int>(std::floor(std::log10(std::abs(value)) / 3.0)) * 3;
  exponent = std::clamp(exponent, -12, 18);
  double scaled = value / std::pow(10.0, exponent);
  // Rounding can carry into the next prefix: 999.96 with 4 digits is 1000.
  double rounded = std::stod(trimmed(scaled, decimalsFor(scaled, significant)));
  if (std::abs(rounded) >= 1000 && exponent < 18) {
    exponent += 3;
    scaled /= 1000;
  }
  const char* prefix = kPrefixes[static_cast<size_t>((exponent + 12) / 3)];
  return trimmed(scaled, decimalsFor(scaled, significant)) + " " + prefix + std::string(unit);
}

std::string intensityText(double flopsPerByte) {
  if (flopsPerByte <= 0 || !std::isfinite(flopsPerByte)) return trimmed(flopsPerByte, 0) + " FLOP/byte";
  int integerDigits = static_cast<int>(std::floor(std::log10(flopsPerByte))) + 1;
  return trimmed(flopsPerByte, std::max(0, 4 - integerDigits)) + " FLOP/byte";
}

}  // namespace gpuscope
