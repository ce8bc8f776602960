#include "core/roofline/peaks_measurement.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace gpuscope {
namespace {

using Json = nlohmann::json;

// A member of OBJECT of type T, or FALLBACK when absent or of another type: the helper's fields are checked,
// never trusted to be there.
template <typename T>
T member(const Json& object, const char* key, T fallback) {
  auto it = object.find(key);
  if (it == object.end()) return fallback;
  if constexpr (std::is_same_v<T, std::string>) {
    return it->is_string() ? it->template get<std::string>() : fallback;
  } else {
    return it->is_number() ? it->template get<T>() : fallback;
  }
}

DeviceInfo deviceFromJson(const Json& device) {
  DeviceInfo info;
  info.id = member<uint32_t>(device, "ordinal", 0);
  info.name = member<std::string>(device, "name", "");
  info.computeMajor = member<int>(device, "computeMajor", 0);
  info.computeMinor = member<int>(device, "computeMinor", 0);
  info.smCount = member<int>(device, "smCount", 0);
  info.clockRate = member<int64_t>(device, "clockRate", 0);
  info.memoryBandwidth = member<int64_t>(device, "memoryBandwidth", 0);
  info.l2CacheSize = member<int64_t>(device, "l2CacheSize", 0);
  info.totalMemory = member<int64_t>(device, "totalMemory", 0);
  return info;
}

MeasuredPeak peakFromJson(const Json& peak, const PeaksMeasurement& measurement, int64_t measuredAt) {
  MeasuredPeak result;
  result.deviceId = measurement.device.id;
  result.deviceName = measurement.device.name;
  result.uuid = measurement.uuid;
  result.kind = member<std::string>(peak, "kind", "");
  result.value = member<double>(peak, "value", 0.0);
  result.method = member<std::string>(peak, "method", "");
  result.measuredAt = measuredAt;
  return result;
}

Json parseObject(std::string_view text) {
  Json json = Json::parse(text.begin(), text.end(), nullptr, false);
  if (json.is_discarded() || !json.is_object())
    throw TraceError("gpuscope-peaks printed something other than its JSON measurement.");
  if (auto error = member<std::string>(json, "error", ""); !error.empty()) throw TraceError(error);
  if (member<int>(json, "format", 0) != kPeaksFormatVersion)
    throw TraceError("gpuscope-peaks wrote another output format than this gpuscope reads: install both together.");
  return json;
}

}  // namespace

PeaksMeasurement parsePeaksOutput(std::string_view text) {
  Json json = parseObject(text);
  auto device = json.find("device");
  auto peaks = json.find("peaks");
  if (device == json.end() || !device->is_object() || peaks == json.end() || !peaks->is_array())
    throw TraceError("gpuscope-peaks' output has no device or no peaks.");
  PeaksMeasurement measurement;
  measurement.helper = member<std::string>(json, "helper", "gpuscope-peaks");
  measurement.device = deviceFromJson(*device);
  measurement.uuid = member<std::string>(*device, "uuid", "");
  auto measuredAt = member<int64_t>(json, "measuredAt", 0);
  for (const auto& peak : *peaks) {
    if (!peak.is_object()) continue;
    auto result = peakFromJson(peak, measurement, measuredAt);
    if (isPeakKind(result.kind) && std::isfinite(result.value) && result.value > 0)
      measurement.peaks.push_back(std::move(result));
  }
  if (measurement.peaks.empty())
    throw TraceError("gpuscope-peaks measured no roof on " + measurement.device.name + ".");
  return measurement;
}

ReportTable peaksTable(const PeaksMeasurement& measurement) {
  ReportTable table;
  table.name = "device_peaks";
  table.title = "Peaks of device " + std::to_string(measurement.device.id) + ", " + measurement.device.name;
  table.columns = {{"Roof", 0}, {"Measured", 1}, {"Theoretical", 1}, {"Of Theoretical (%)", 1},
                   {"Unit", 0}, {"Method", 0}};
  DeviceRoofs theoretical = deviceRoofs(measurement.device);
  for (const auto& peak : measurement.peaks) {
    double ofTheory = roofValue(theoretical, peak.kind);
    std::vector<ReportCell> row(table.columns.size());  // final width: see rooflinePointsTable
    row[0] = peak.kind;
    row[1] = peak.value / 1e9;
    row[2] = gigaCell(ofTheory);
    row[3] = optionalCell(ofTheory > 0, 100.0 * peak.value / ofTheory);
    row[4] = std::string(peakUnit(peak.kind) == "B/s" ? "GB/s" : "GFLOP/s");
    row[5] = peak.method;
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace gpuscope
