#include <charconv>
#include <cmath>

#include "core/import/kineto/kineto_event.h"

namespace gpuscope::kineto {

std::optional<TimeNs> microsecondsTextToNs(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  if (text.find_first_of("eE") != std::string_view::npos) {
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || !std::isfinite(value) || std::fabs(value) > 9e12) return std::nullopt;
    auto ns = static_cast<TimeNs>(std::llround(value * 1000.0));
    return negative ? -ns : ns;
  }
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  int64_t micros = 0;
  if (!whole.empty()) {
    auto [ptr, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), micros);
    if (ec != std::errc() || ptr != whole.data() + whole.size() || micros > 9'000'000'000'000'000) return std::nullopt;
  }
  int64_t nanos = 0;
  for (size_t i = 0; i < 3; ++i) {
    char c = i < fraction.size() ? fraction[i] : '0';
    if (c < '0' || c > '9') return std::nullopt;
    nanos = nanos * 10 + (c - '0');
  }
  if (fraction.size() > 3 && fraction[3] >= '5' && fraction[3] <= '9') ++nanos;
  TimeNs ns = micros * 1000 + nanos;
  return negative ? -ns : ns;
}

}  // namespace gpuscope::kineto
