#include "core/analysis/verdict/memory_peak.h"

#include <set>

#include "core/metrics/memory_usage.h"
#include "core/schema/table_names.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

int64_t totalMemoryOf(const Database& db, int deviceId) {
  if (!db.hasTable(table::kTargetGpu)) return 0;
  auto statement = db.prepare("SELECT max(totalMemory) FROM " + std::string(table::kTargetGpu) + " WHERE id = ?1");
  statement.bind(1, int64_t{deviceId});
  if (!statement.step() || !statement.isInteger(0)) return 0;
  return statement.int64(0);
}

}  // namespace

std::string MemoryPeak::sentence() const {
  std::string of = totalBytes > 0 ? " of " + formatBytes(totalBytes) + " (" + percentText(share()) + ")" : "";
  std::string host = hw != 0 ? " of host " + std::to_string(hw) : "";
  return "Device memory peaked at " + formatBytes(peakBytes) + of + " on GPU " + std::to_string(deviceId) + host +
         " (CUDA memory usage events).";
}

std::vector<MemoryPeak> memoryPeaks(const Database& db) {
  std::vector<MemoryPeak> peaks;
  MemoryUsage usage;
  try {
    usage = readMemoryUsage(db);
  } catch (const std::exception&) {
    return peaks;  // a damaged table: no peak, rather than a made-up one
  }
  std::set<std::pair<uint32_t, int>> devices;
  for (const ProcessMemory& process : usage.processes) devices.insert({process.hw, process.deviceId});
  for (auto [hw, device] : devices) {
    MemoryUsage::Peak peak = usage.devicePeak(device, hw);
    peaks.push_back({device, hw, peak.bytes, peak.time, totalMemoryOf(db, device)});
  }
  return peaks;
}

}  // namespace gpuscope
