#pragma once
// Target information tables: process and thread names, GPU devices.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/string_table.h"
#include "core/model/trace.h"

namespace gpuscope {

class Database;

// globalPid -> process name, from PROCESSES (empty when the table is absent).
std::unordered_map<int64_t, std::string> readProcessNames(const Database& db);
// globalTid -> thread name, from ThreadNames; names whose string id is unknown are skipped.
std::unordered_map<int64_t, std::string> readThreadNames(const Database& db, const StringTable& strings,
                                                         const std::vector<std::string>& text);
// Devices of TARGET_INFO_GPU, reading only the columns the file has.
std::vector<DeviceInfo> readDevices(const Database& db);

}  // namespace gpuscope
