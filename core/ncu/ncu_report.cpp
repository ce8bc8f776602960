#include "core/ncu/ncu_report.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/model/time_math.h"
#include "core/ncu/csv_reader.h"

namespace gpuscope {
namespace {

// Columns of ncu's CSV that describe the launch rather than hold a metric.
constexpr std::array<std::string_view, 17> kLaunchColumns = {
    "ID",          "Process ID",   "Process Name",    "Host Name",   "Kernel Name", "Kernel Time",
    "Context",     "Stream",       "Block Size",      "Grid Size",   "Device",      "CC",
    "Invocations", "Section Name", "Body Item Label", "Metric Name", "Metric Unit"};

// Time units, in nanoseconds.
std::optional<double> timeUnitNs(std::string_view unit) {
  if (unit == "nsecond" || unit == "ns") return 1.0;
  if (unit == "usecond" || unit == "us") return 1e3;
  if (unit == "msecond" || unit == "ms") return 1e6;
  if (unit == "second" || unit == "s" || unit == "sec") return 1e9;
  return std::nullopt;
}

// A count unit with an optional SI ("K", "M", "G", "T", "P") or binary ("Ki", "Mi", ...) prefix.
double prefixedScale(std::string_view unit) {
  static constexpr std::array<std::string_view, 8> kBases = {"byte", "inst",   "cycle", "hz",
                                                             "Hz",   "sector", "warp",  "request"};
  for (auto base : kBases) {
    if (unit.size() < base.size() || unit.substr(unit.size() - base.size()) != base) continue;
    auto prefix = unit.substr(0, unit.size() - base.size());
    if (prefix.empty()) return 1.0;
    bool binary = prefix.size() == 2 && prefix[1] == 'i';
    if (prefix.size() != 1 && !binary) return 1.0;
    double step = binary ? 1024.0 : 1000.0;
    switch (prefix[0]) {
      case 'k':
      case 'K':
        return step;
      case 'M':
        return step * step;
      case 'G':
        return step * step * step;
      case 'T':
        return step * step * step * step;
      case 'P':
        return step * step * step * step * step;
      default:
        return 1.0;
    }
  }
  return 1.0;
}

bool isLaunchColumn(std::string_view column) {
  return std::find(kLaunchColumns.begin(), kLaunchColumns.end(), column) != kLaunchColumns.end();
}

int64_t integerOr(std::string_view text, int64_t fallback) {
  auto number = parseCsvNumber(text);
  auto integer = number ? roundedToInt64(*number) : std::nullopt;
  return integer.value_or(fallback);
}

// Skips IN to past the header line ("ID",... with a "Kernel Name" column) and returns its fields.
std::optional<CsvRecord> readHeader(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("\"ID\",", 0) != 0 && line.rfind("ID,", 0) != 0) continue;
    if (line.find("Kernel Name") == std::string::npos) continue;
    std::istringstream text(line);
    CsvRecord header;
    CsvReader(text).next(header);
    return header;
  }
  return std::nullopt;
}

struct ColumnIndex {
  std::map<std::string, size_t, std::less<>> byName;
  std::optional<size_t> find(std::string_view name) const {
    auto it = byName.find(name);
    return it == byName.end() ? std::nullopt : std::optional<size_t>(it->second);
  }
};

std::string_view field(const CsvRecord& record, std::optional<size_t> column) {
  return column && *column < record.size() ? std::string_view(record[*column]) : std::string_view();
}

// Rows that are not part of the table: blank lines and ncu's own ==PROF== / ==WARNING== messages.
bool isNoise(const CsvRecord& record) {
  if (record.size() <= 1) return true;
  return record.front().rfind("==", 0) == 0;
}

NcuKernel kernelFrom(const CsvRecord& record, const ColumnIndex& columns) {
  NcuKernel kernel;
  kernel.id = integerOr(field(record, columns.find("ID")), -1);
  kernel.pid = integerOr(field(record, columns.find("Process ID")), 0);
  kernel.processName = std::string(field(record, columns.find("Process Name")));
  kernel.name = std::string(field(record, columns.find("Kernel Name")));
  kernel.stream = std::string(field(record, columns.find("Stream")));
  kernel.device = std::string(field(record, columns.find("Device")));
  return kernel;
}

std::optional<double> scaledValue(std::string_view text, std::string_view unit) {
  auto number = parseCsvNumber(text);
  if (!number) return std::nullopt;
  return *number * ncuUnitScale(unit);
}

// Rows one at a time, as they stream in (the whole file is never in memory).
void parseLong(CsvReader& rows, const ColumnIndex& columns, NcuReport& report) {
  auto section = columns.find("Section Name");
  auto label = columns.find("Body Item Label");
  auto name = columns.find("Metric Name");
  auto unit = columns.find("Metric Unit");
  auto value = columns.find("Metric Value");
  std::map<int64_t, size_t> kernelById;
  CsvRecord record;
  while (rows.next(record)) {
    if (isNoise(record)) continue;
    auto metricName = field(record, name);
    if (metricName.empty()) continue;  // a rule's advice row
    auto kernel = kernelFrom(record, columns);
    auto [it, added] = kernelById.emplace(kernel.id, report.kernels.size());
    if (added) report.kernels.push_back(std::move(kernel));
    NcuMetric metric;
    metric.section = std::string(field(record, section));
    metric.label = std::string(field(record, label));
    metric.name = std::string(metricName);
    metric.unit = std::string(field(record, unit));
    metric.value = scaledValue(field(record, value), metric.unit);
    report.kernels[it->second].metrics.push_back(std::move(metric));
  }
}

void parseRaw(CsvReader& rows, const CsvRecord& header, const ColumnIndex& columns, NcuReport& report) {
  auto idColumn = columns.find("ID");
  std::vector<std::string> units(header.size());
  CsvRecord record;
  while (rows.next(record)) {
    if (isNoise(record)) continue;
    // The units row: no kernel ID, units under the metric columns.
    if (!parseCsvNumber(field(record, idColumn))) {
      for (size_t c = 0; c < record.size() && c < units.size(); ++c) units[c] = record[c];
      continue;
    }
    auto kernel = kernelFrom(record, columns);
    for (size_t c = 0; c < header.size() && c < record.size(); ++c) {
      if (isLaunchColumn(header[c])) continue;
      NcuMetric metric;
      metric.name = header[c];
      metric.unit = units[c];
      metric.value = scaledValue(record[c], metric.unit);
      kernel.metrics.push_back(std::move(metric));
    }
    report.kernels.push_back(std::move(kernel));
  }
}

}  // namespace

std::optional<double> NcuKernel::value(std::string_view metricName) const {
  for (const auto& metric : metrics)
    if (metric.name == metricName && metric.value) return metric.value;
  return std::nullopt;
}

std::optional<double> NcuKernel::value(std::string_view section, std::string_view label,
                                       std::string_view metricName) const {
  for (const auto& metric : metrics)
    if (metric.section == section && metric.label == label && metric.name == metricName && metric.value)
      return metric.value;
  return std::nullopt;
}

double ncuUnitScale(std::string_view unit) {
  if (auto ns = timeUnitNs(unit)) return *ns;
  auto slash = unit.find('/');
  if (slash != std::string_view::npos) {
    // A rate: scale the numerator and express it per second.
    auto per = timeUnitNs(unit.substr(slash + 1));
    double numerator = prefixedScale(unit.substr(0, slash));
    return per ? numerator * (1e9 / *per) : numerator;
  }
  return prefixedScale(unit);
}

NcuReport readNcuCsv(std::istream& in) {
  auto header = readHeader(in);
  if (!header)
    throw TraceError(
        "This is not an `ncu --csv` report: no header line starting with \"ID\" and naming a "
        "\"Kernel Name\" column was found.");
  ColumnIndex columns;
  for (size_t c = 0; c < header->size(); ++c) columns.byName.emplace((*header)[c], c);
  NcuReport report;
  bool isLong = columns.find("Metric Name") && columns.find("Metric Value");
  report.layout = isLong ? NcuLayout::Long : NcuLayout::Raw;
  CsvReader rows(in);
  if (isLong)
    parseLong(rows, columns, report);
  else
    parseRaw(rows, *header, columns, report);
  std::stable_sort(report.kernels.begin(), report.kernels.end(),
                   [](const NcuKernel& a, const NcuKernel& b) { return a.id < b.id; });
  return report;
}

NcuReport parseNcuCsv(std::string_view text) {
  std::istringstream in{std::string(text)};
  return readNcuCsv(in);
}

NcuReport readNcuCsvFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw TraceError(path + " is not a regular file (a folder, pipe or device), not an ncu report.");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError("Cannot read " + path + ": check that it exists and is readable.");
  try {
    return readNcuCsv(in);
  } catch (const TraceError& error) {
    throw TraceError(path + ": " + error.what());
  }
}

}  // namespace gpuscope
