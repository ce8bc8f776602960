#pragma once
// Units as gpuscope writes them, once for the CLI and the UI alike: durations, byte counts, and any
// rate (FLOP/s, bandwidth) with an SI prefix. Both roofline charts label a roof with these, so the same
// roof reads the same everywhere ("3.352 TB/s", "66.9 TFLOP/s").
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuscope {

// Durations at the edge: "1.234 ms", "56.700 us", "890 ns", "2.500 s". NS is nanoseconds, as TimeNs.
std::string formatDuration(int64_t ns);
// "512 B", "1.50 KiB", "80.00 GiB": binary prefixes, as nsys prints memory sizes.
std::string formatBytes(int64_t bytes);
// A count with thousands separators: "1,234,567".
std::string formatCount(uint64_t count);
// NUMBER as printed ("-1234567.5") with thousands separators in its integer part: "-1,234,567.5".
std::string withThousands(std::string_view number);

// VALUE with an SI prefix and SIGNIFICANT digits (trailing zeros dropped): engineeringText(4.669e11, "FLOP/s")
// is "467 GFLOP/s", engineeringText(6.69e13, "FLOP/s") "66.9 TFLOP/s", engineeringText(0.0125, "s") "12.5 ms".
// Prefixes run from p to E; 0 is "0 UNIT"; a negative value keeps its sign.
std::string engineeringText(double value, std::string_view unit, int significant = 3);

// "0.1733 FLOP/byte": an arithmetic intensity with 4 significant digits.
std::string intensityText(double flopsPerByte);

// A compute roof or rate: "66.9 TFLOP/s" (3 significant digits).
inline std::string flopRateText(double flopsPerSecond) { return engineeringText(flopsPerSecond, "FLOP/s"); }
// A memory roof or bandwidth: "3.352 TB/s" (decimal prefixes, 4 significant digits).
inline std::string bandwidthText(double bytesPerSecond) { return engineeringText(bytesPerSecond, "B/s", 4); }

}  // namespace gpuscope
