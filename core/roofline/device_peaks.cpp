#include "core/roofline/device_peaks.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/trace_file.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace {

constexpr std::array<std::string_view, 4> kPrecisionKinds = {"fp64", "fp32", "fp16", "tensor"};  // by Precision
constexpr std::array<std::string_view, 3> kLevelKinds = {"dram", "l2", "l1"};                    // by MemoryLevel

template <size_t N>
std::optional<size_t> indexOf(const std::array<std::string_view, N>& kinds, std::string_view kind) {
  auto it = std::find(kinds.begin(), kinds.end(), kind);
  return it == kinds.end() ? std::nullopt : std::optional<size_t>(static_cast<size_t>(it - kinds.begin()));
}

// The columns of the table in spec order; optional ones a file of another version lacks read as NULL.
std::string selectList(const Database& db, const TableSpec& spec) {
  std::string columns;
  for (const auto& column : spec.columns) {
    if (!columns.empty()) columns += ", ";
    columns += column.neededToRead || hasColumn(db, spec.name, column.name) ? std::string(column.name) : "NULL";
  }
  return columns;
}

MeasuredPeak peakFromRow(const Statement& row) {
  MeasuredPeak peak;
  peak.deviceId = static_cast<uint32_t>(row.int64(0));
  peak.deviceName = std::string(row.text(1));
  peak.uuid = std::string(row.text(2));
  peak.kind = std::string(row.text(3));
  peak.value = row.isNull(4) ? 0.0 : row.real(4);
  peak.method = std::string(row.text(5));
  peak.measuredAt = row.isNull(6) ? 0 : row.int64(6);
  return peak;
}

bool usable(const MeasuredPeak& peak) { return isPeakKind(peak.kind) && std::isfinite(peak.value) && peak.value > 0; }

// nsys writes device UUIDs bare and lower-case; nvidia-smi prefixes "GPU-". Compare them alike.
std::string normalizedUuid(std::string uuid) {
  if (uuid.rfind("GPU-", 0) == 0) uuid.erase(0, 4);
  std::transform(uuid.begin(), uuid.end(), uuid.begin(), [](unsigned char c) { return std::tolower(c); });
  return uuid;
}

void setRoof(DeviceRoofs& roofs, std::string_view kind, double value) {
  if (auto p = indexOf(kPrecisionKinds, kind)) {
    roofs.peakFlops[*p] = value;
    roofs.peakSource[*p] = RoofSource::Measured;
  } else if (auto l = indexOf(kLevelKinds, kind)) {
    roofs.bandwidth[*l] = value;
    roofs.bandwidthSource[*l] = RoofSource::Measured;
  }
}

}  // namespace

std::string_view peakKind(Precision precision) { return kPrecisionKinds[static_cast<size_t>(precision)]; }
std::string_view peakKind(MemoryLevel level) { return kLevelKinds[static_cast<size_t>(level)]; }

bool isPeakKind(std::string_view kind) {
  return indexOf(kPrecisionKinds, kind).has_value() || indexOf(kLevelKinds, kind).has_value();
}

std::string_view peakUnit(std::string_view kind) { return indexOf(kLevelKinds, kind) ? "B/s" : "FLOP/s"; }

double roofValue(const DeviceRoofs& roofs, std::string_view kind) {
  if (auto p = indexOf(kPrecisionKinds, kind)) return roofs.peakFlops[*p];
  if (auto l = indexOf(kLevelKinds, kind)) return roofs.bandwidth[*l];
  return 0;
}

std::vector<MeasuredPeak> readDevicePeaks(const Database& db) {
  std::vector<MeasuredPeak> peaks;
  if (!db.hasTable(table::kDevicePeaks)) return peaks;
  const auto& spec = tableSpec(table::kDevicePeaks);
  auto missing = missingNeededColumns(db, spec);
  if (!missing.empty())
    throw TraceError("The " + std::string(table::kDevicePeaks) + " table of " + db.path() + " has no " +
                     missing.front() + " column: store the peaks again with `gpuscope peaks --store`.");
  auto stmt = db.prepare("SELECT " + selectList(db, spec) + " FROM " + std::string(table::kDevicePeaks));
  while (stmt.step()) {
    auto peak = peakFromRow(stmt);
    if (usable(peak)) peaks.push_back(std::move(peak));
  }
  return peaks;
}

void writeDevicePeaks(const std::string& path, const std::vector<MeasuredPeak>& peaks) {
  const auto& spec = tableSpec(table::kDevicePeaks);
  bool hasTable = false;
  {
    // Check the target is a trace, and its table ours, before changing it.
    auto check = openTraceFile(path);
    hasTable = check.hasTable(table::kDevicePeaks);
    if (hasTable && !missingNeededColumns(check, spec).empty())
      throw TraceError(path + " has a " + std::string(table::kDevicePeaks) +
                       " table that another program wrote: gpuscope leaves it alone.");
  }
  std::unique_ptr<TraceWriter> writer = TraceWriter::addTo(path);
  int rows =
      writer->tableRows(table::kDevicePeaks, {"deviceId", "name", "uuid", "kind", "value", "method", "measuredAt"});
  for (const MeasuredPeak& peak : peaks) {
    writer->addRow(rows, {int64_t{peak.deviceId}, std::string_view(peak.deviceName), std::string_view(peak.uuid),
                          std::string_view(peak.kind), peak.value, std::string_view(peak.method), peak.measuredAt});
  }
  writer->finish();
}

std::optional<uint32_t> matchTraceDevice(const Database& db, const std::string& uuid, const std::string& name) {
  if (!db.hasTable(table::kTargetGpu)) return std::nullopt;
  bool hasName = hasColumn(db, table::kTargetGpu, "name"), hasUuid = hasColumn(db, table::kTargetGpu, "uuid");
  auto stmt = db.prepare(std::string("SELECT id, ") + (hasName ? "name" : "NULL") + ", " + (hasUuid ? "uuid" : "NULL") +
                         " FROM TARGET_INFO_GPU WHERE id IS NOT NULL");
  std::optional<uint32_t> byName;
  size_t namesMatched = 0;
  while (stmt.step()) {
    auto id = static_cast<uint32_t>(stmt.int64(0));
    if (!uuid.empty() && normalizedUuid(std::string(stmt.text(2))) == normalizedUuid(uuid)) return id;
    if (!name.empty() && stmt.text(1) == name && (!byName || *byName != id)) {
      byName = id;
      ++namesMatched;
    }
  }
  // Several devices of that model: which one the figures belong to is unknown, so none.
  return namesMatched == 1 ? byName : std::nullopt;
}

void applyMeasuredPeaks(DeviceRoofs& roofs, const std::vector<MeasuredPeak>& peaks) {
  std::map<std::string_view, const MeasuredPeak*> latest;
  for (const auto& peak : peaks) {
    if (peak.deviceId != roofs.deviceId || !usable(peak)) continue;
    auto& slot = latest[peak.kind];
    if (!slot || peak.measuredAt >= slot->measuredAt) slot = &peak;
  }
  for (const auto& [kind, peak] : latest) setRoof(roofs, kind, peak->value);
  if (!latest.empty()) roofs.unknownBecause.clear();  // its advice, to measure the roofs, has been taken
}

DeviceRoofs measuredOrTheoreticalRoofs(const Database& db, const DeviceInfo& device) {
  auto roofs = deviceRoofs(device);
  applyMeasuredPeaks(roofs, readDevicePeaks(db));
  return roofs;
}

}  // namespace gpuscope
