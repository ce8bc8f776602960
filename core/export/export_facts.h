#pragma once
// What an exporter needs from the trace file beyond the loaded events: the wall-clock time of trace
// time 0, the distributed rank, and the NVTX domain names that tell a PyTorch trace's CPU ops apart.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuscope {

class Database;

struct ExportFacts {
  std::optional<int64_t> sessionStartUtcNs;  // TARGET_INFO_SESSION_START_TIME.utcEpochNs
  int64_t rank = 0;                          // GPUSCOPE_META distributed_rank, else 0
  std::map<int64_t, std::string> nvtxDomains;
  // Rowids of CUPTI_ACTIVITY_KIND_RUNTIME's driver calls, sorted; nullopt when the table has no eventClass.
  std::optional<std::vector<uint32_t>> driverCallRows;
};

ExportFacts readExportFacts(const Database& db);

}  // namespace gpuscope
