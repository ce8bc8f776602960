#pragma once
// Counter values as KernelMetrics records carry them: one "name=value\n" line per counter.
//
// Header-only on purpose: the CUDA injection library writes it and the daemon reads it, and the two are
// linked separately (the injection library must not export the transport's symbols).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuscope::transport {

using CounterValues = std::vector<std::pair<std::string, double>>;

// Values that are not finite (a counter CUPTI could not evaluate) are left out, so that "absent" is
// never confused with a number.
inline std::string encodeCounters(const CounterValues& counters) {
  std::string text;
  char value[40];
  for (const auto& [name, number] : counters) {
    if (!std::isfinite(number) || name.empty() || name.find_first_of("=\n") != std::string::npos) continue;
    // %.17g: a double comes back bit for bit.
    std::snprintf(value, sizeof value, "%.17g", number);
    text += name;
    text += '=';
    text += value;
    text += '\n';
  }
  return text;
}

// The counters of TEXT; lines that do not parse (a damaged record) are skipped.
inline CounterValues decodeCounters(std::string_view text) {
  CounterValues counters;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    size_t equals = line.find('=');
    if (equals == 0 || equals == std::string_view::npos) continue;
    double number = 0;
    std::string_view digits = line.substr(equals + 1);
    auto [rest, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || rest != digits.data() + digits.size() || !std::isfinite(number)) continue;
    counters.emplace_back(std::string(line.substr(0, equals)), number);
  }
  return counters;
}

}  // namespace gpuscope::transport
