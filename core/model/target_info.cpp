#include "core/model/target_info.h"

#include <array>
#include <functional>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// Binds a TARGET_INFO_GPU column, when the file has it, to a field of DeviceInfo.
struct DeviceColumn {
  const char* name;
  std::function<void(DeviceInfo&, const Statement&, int)> set;
};

template <typename Field>
DeviceColumn intColumn(const char* name, Field DeviceInfo::*field) {
  return {name, [field](DeviceInfo& d, const Statement& s, int c) {
            if (!s.isNull(c)) d.*field = static_cast<Field>(s.int64(c));
          }};
}

DeviceColumn textColumn(const char* name, std::string DeviceInfo::*field) {
  return {name, [field](DeviceInfo& d, const Statement& s, int c) { d.*field = std::string(s.text(c)); }};
}

std::vector<DeviceColumn> deviceColumns() {
  return {textColumn("name", &DeviceInfo::name),
          textColumn("chipName", &DeviceInfo::chipName),
          intColumn("totalMemory", &DeviceInfo::totalMemory),
          intColumn("memoryBandwidth", &DeviceInfo::memoryBandwidth),
          intColumn("clockRate", &DeviceInfo::clockRate),
          intColumn("l2CacheSize", &DeviceInfo::l2CacheSize),
          intColumn("smCount", &DeviceInfo::smCount),
          intColumn("computeMajor", &DeviceInfo::computeMajor),
          intColumn("computeMinor", &DeviceInfo::computeMinor),
          intColumn("threadsPerWarp", &DeviceInfo::threadsPerWarp),
          intColumn("maxWarpsPerSm", &DeviceInfo::maxWarpsPerSm),
          intColumn("maxBlocksPerSm", &DeviceInfo::maxBlocksPerSm),
          intColumn("maxThreadsPerBlock", &DeviceInfo::maxThreadsPerBlock),
          intColumn("maxRegistersPerSm", &DeviceInfo::maxRegistersPerSm),
          intColumn("maxRegistersPerBlock", &DeviceInfo::maxRegistersPerBlock),
          intColumn("maxShmemPerSm", &DeviceInfo::maxShmemPerSm),
          intColumn("maxShmemPerBlock", &DeviceInfo::maxShmemPerBlock),
          intColumn("maxShmemPerBlockOptin", &DeviceInfo::maxShmemPerBlockOptin)};
}

}  // namespace

std::unordered_map<int64_t, std::string> readProcessNames(const Database& db) {
  std::unordered_map<int64_t, std::string> names;
  if (!db.hasTable(table::kProcesses) || !missingNeededColumns(db, tableSpec(table::kProcesses)).empty()) return names;
  auto stmt = db.prepare("SELECT globalPid, name FROM PROCESSES WHERE globalPid IS NOT NULL");
  while (stmt.step()) names[stmt.int64(0)] = std::string(stmt.text(1));
  return names;
}

std::unordered_map<int64_t, std::string> readThreadNames(const Database& db, const StringTable& strings,
                                                         const std::vector<std::string>& text) {
  std::unordered_map<int64_t, std::string> names;
  if (!db.hasTable(table::kThreadNames) || !missingNeededColumns(db, tableSpec(table::kThreadNames)).empty())
    return names;
  auto stmt = db.prepare("SELECT globalTid, nameId FROM ThreadNames WHERE globalTid IS NOT NULL");
  while (stmt.step()) {
    StringId id = stmt.isNull(1) ? StringTable::kMissing : strings.fromFileId(stmt.int64(1));
    if (id != StringTable::kMissing && id < text.size()) names[stmt.int64(0)] = text[id];
  }
  return names;
}

std::vector<DeviceInfo> readDevices(const Database& db) {
  std::vector<DeviceInfo> devices;
  if (!db.hasTable(table::kTargetGpu) || !hasColumn(db, table::kTargetGpu, "id")) return devices;
  auto present = db.columnsOf(table::kTargetGpu);
  std::vector<DeviceColumn> used;
  std::string sql = "SELECT id";
  for (auto& column : deviceColumns()) {
    if (std::find(present.begin(), present.end(), column.name) == present.end()) continue;
    sql += std::string(", ") + column.name;
    used.push_back(std::move(column));
  }
  auto stmt = db.prepare(sql + " FROM TARGET_INFO_GPU WHERE id IS NOT NULL ORDER BY id");
  while (stmt.step()) {
    DeviceInfo device;
    device.id = static_cast<uint32_t>(stmt.int64(0));
    for (size_t i = 0; i < used.size(); ++i) used[i].set(device, stmt, static_cast<int>(i) + 1);
    bool duplicate = !devices.empty() && devices.back().id == device.id;
    if (!duplicate) devices.push_back(std::move(device));
  }
  return devices;
}

}  // namespace gpuscope
