#include "core/stats/summary_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace gpuscope {
namespace {

__extension__ typedef __int128 Int128;

int64_t saturated(Int128 value) {
  constexpr auto kMax = std::numeric_limits<int64_t>::max();
  constexpr auto kMin = std::numeric_limits<int64_t>::min();
  return value > kMax ? kMax : value < kMin ? kMin : static_cast<int64_t>(value);
}

// Adds one unit in the last place of a decimal string of digits and one '.', carrying left.
std::string incrementLastDigit(std::string digits) {
  for (size_t i = digits.size(); i-- > 0;) {
    if (digits[i] == '.') continue;
    if (digits[i] != '9') {
      ++digits[i];
      return digits;
    }
    digits[i] = '0';
  }
  return "1" + digits;
}

}  // namespace

double medianOfSorted(std::span<const int64_t> sorted) {
  if (sorted.empty()) return 0;
  size_t mid = sorted.size() / 2;
  if (sorted.size() % 2) return static_cast<double>(sorted[mid]);
  return static_cast<double>((static_cast<Int128>(sorted[mid - 1]) + sorted[mid])) / 2.0;
}

double sampleStdDev(std::span<const int64_t> samples) {
  if (samples.size() < 2) return 0;
  Int128 sum = 0;
  for (int64_t value : samples) sum += value;
  // Two passes in long double around the exact mean: no cancellation, no overflow.
  long double mean = static_cast<long double>(sum) / static_cast<long double>(samples.size());
  long double squares = 0;
  for (int64_t value : samples) {
    long double delta = static_cast<long double>(value) - mean;
    squares += delta * delta;
  }
  return static_cast<double>(std::sqrt(squares / static_cast<long double>(samples.size() - 1)));
}

SampleSummary summarize(std::vector<int64_t> samples) {
  SampleSummary summary;
  if (samples.empty()) return summary;
  std::sort(samples.begin(), samples.end());
  Int128 sum = 0;
  for (int64_t value : samples) sum += value;
  summary.count = static_cast<int64_t>(samples.size());
  summary.total = saturated(sum);
  summary.min = samples.front();
  summary.max = samples.back();
  summary.mean = static_cast<double>(sum) / static_cast<double>(samples.size());
  summary.median = medianOfSorted(samples);
  summary.stddev = sampleStdDev(samples);
  return summary;
}

double sqlRound(double value, int decimals) {
  // Beyond 2^52 a double has no fraction left to round (SQLite leaves these alone too).
  if (!std::isfinite(value) || std::fabs(value) >= 4503599627370496.0 || decimals < 0) return value;
  // glibc prints the exact binary value; 70 digits are far past any digit that could decide a tie.
  char exact[160];
  std::snprintf(exact, sizeof exact, "%.70f", std::fabs(value));
  std::string text(exact);
  size_t point = text.find('.');
  std::string kept = text.substr(0, point + 1 + static_cast<size_t>(decimals));
  if (text[point + 1 + static_cast<size_t>(decimals)] >= '5') kept = incrementLastDigit(kept);
  double rounded = std::strtod(kept.c_str(), nullptr);
  return value < 0 ? -rounded : rounded;
}

double percentOf(int64_t part, int64_t whole) {
  if (whole == 0) return 0;
  return sqlRound(static_cast<double>(part) * 100.0 / static_cast<double>(whole), 1);
}

}  // namespace gpuscope
