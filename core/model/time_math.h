#pragma once
// Arithmetic on times and counts read from untrusted files: a file can hold any int64 (or double), so
// spans, sums and products saturate at the int64 range instead of overflowing (undefined behaviour
// that wraps to negative spans in Release builds). Every reader and view computes spans through here.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace gpuscope {

inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// a + b, clamped to [INT64_MIN, INT64_MAX].
constexpr int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? kInt64Max : kInt64Min;
  return sum;
}

// a - b, clamped to [INT64_MIN, INT64_MAX].
constexpr int64_t saturatingSub(int64_t a, int64_t b) {
  int64_t difference = 0;
  if (__builtin_sub_overflow(a, b, &difference)) return b < 0 ? kInt64Max : kInt64Min;
  return difference;
}

// a * b, clamped to [INT64_MIN, INT64_MAX].
constexpr int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return (a < 0) != (b < 0) ? kInt64Min : kInt64Max;
  return product;
}

// The duration from START to END (END - START), clamped: never wraps to a negative span when END >= START.
constexpr int64_t spanNs(int64_t start, int64_t end) { return saturatingSub(end, start); }

// VALUE rounded to the nearest integer when it fits an int64; nothing for NaN, infinities and values
// beyond the range (casting those is undefined behaviour).
inline std::optional<int64_t> roundedToInt64(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  double rounded = std::round(value);
  // 2^63 is exactly representable; every double below it converts safely.
  if (rounded < -9223372036854775808.0 || rounded >= 9223372036854775808.0) return std::nullopt;
  return static_cast<int64_t>(rounded);
}

}  // namespace gpuscope
