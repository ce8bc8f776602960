#pragma once
// NcuReport: the kernels and metric values of an `ncu --csv` report, in either of its layouts.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

// One metric of one kernel. VALUE is in base units (bytes, nanoseconds for durations, instructions,
// cycles, hertz, bytes per second); absent when ncu printed "n/a" or text.
struct NcuMetric {
  std::string section;  // "Section Name" (long layout only)
  std::string label;    // "Body Item Label" (long layout only)
  std::string name;     // metric id ("dram__bytes.sum") or display name ("DRAM Throughput")
  std::string unit;     // as printed
  std::optional<double> value;
};

// One profiled kernel launch.
struct NcuKernel {
  int64_t id = 0;   // ncu's "ID": profiling order across the whole run
  int64_t pid = 0;  // "Process ID"
  std::string processName;
  std::string name;    // "Kernel Name" as printed (demangled with parameters by default)
  std::string stream;  // "Stream", ncu's CUDA stream id
  std::string device;  // "Device"
  std::vector<NcuMetric> metrics;

  // The first metric called NAME with a value (section and label ignored).
  std::optional<double> value(std::string_view metricName) const;
  // The first metric called NAME in SECTION, or in SECTION under body-item LABEL.
  std::optional<double> value(std::string_view section, std::string_view label, std::string_view metricName) const;
};

enum class NcuLayout { Long, Raw };

struct NcuReport {
  NcuLayout layout = NcuLayout::Long;
  std::vector<NcuKernel> kernels;  // in ID order
};

// Parses ncu's CSV output: the long layout (`--csv`, one row per kernel and metric, with "Metric Name",
// "Metric Unit", "Metric Value") or the raw layout (`--csv --page raw`, one row per kernel, a column per
// metric, and possibly a first row of units). Text before the header (the program's output, ==PROF== lines)
// is skipped. Throws TraceError when there is no ncu table.
NcuReport parseNcuCsv(std::string_view text);
// The same from a stream, read record by record: memory holds the report's values, never the file's text.
NcuReport readNcuCsv(std::istream& in);
NcuReport readNcuCsvFile(const std::string& path);

// The factor from UNIT to the base unit NcuMetric::value uses ("Mbyte" -> 1e6, "usecond" -> 1e3,
// "Gbyte/second" -> 1e9, "%" -> 1); 1 for units it does not know.
double ncuUnitScale(std::string_view unit);

}  // namespace gpuscope
