#pragma once
// What TraceAssembler keeps per ring file (one process image), and the helpers its record
// handlers share to read record bodies. Private to collector/daemon.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collector/transport/ring_reader.h"
#include "core/model/global_id.h"

namespace gpuscope {

// nsys numbers the hardware and the virtual machine of a local recording 0 and 1.
constexpr uint32_t kHardwareId = 0;
constexpr uint32_t kVmId = 1;

inline int64_t globalPidOf(uint32_t pid) { return global_id::make(kHardwareId, kVmId, pid, 0); }
inline int64_t globalTidOf(uint32_t pid, uint32_t tid) { return global_id::make(kHardwareId, kVmId, pid, tid); }

// Copies the fixed-size body of a record; false when the record is too short for it.
template <typename Body>
bool readBody(const transport::RecordView& record, Body& body) {
  if (record.bodyBytes < sizeof(Body)) return false;
  std::memcpy(&body, record.body, sizeof(Body));
  return true;
}

// Text stored after the body, cut to what the record really holds.
inline std::string_view textAfter(const transport::RecordView& record, size_t offset, uint64_t length) {
  if (offset > record.bodyBytes) return {};
  uint64_t available = record.bodyBytes - offset;
  return {reinterpret_cast<const char*>(record.body) + offset, static_cast<size_t>(std::min(available, length))};
}

// What the assembler keeps per ring file.
class ProcessTrace {
 public:
  struct OpenRange {
    int64_t start = 0;
    uint32_t tid = 0;
    std::string text;
    bool registered = false;
    int64_t domain = 0;
    std::optional<uint32_t> color;
    std::optional<uint32_t> category;
  };

  uint64_t key = 0;
  uint32_t pid = 0;
  uint32_t ppid = 0;
  int64_t globalPid = 0;
  int64_t lastTime = std::numeric_limits<int64_t>::min();
  std::unordered_map<uint64_t, std::string> strings;
  std::unordered_map<uint64_t, std::string> nvtxStrings;
  std::unordered_map<uint64_t, int64_t> domains;                          // local id -> file-wide domain id
  std::map<std::pair<uint32_t, int64_t>, std::vector<OpenRange>> stacks;  // (tid, domain) -> pushed ranges
  std::unordered_map<uint64_t, OpenRange> startedRanges;
  std::unordered_map<uint64_t, std::pair<int64_t, uint32_t>> endedRanges;  // range id -> (time, tid)
  std::unordered_map<uint32_t, uint32_t> contextDevices;
  std::set<uint32_t> knownThreads;

  void saw(int64_t time) {
    if (time > lastTime) lastTime = time;
  }
  const std::string& string(uint64_t id) const {
    static const std::string kUnknown = "[unknown]";
    auto found = strings.find(id);
    return found != strings.end() ? found->second : kUnknown;
  }
  int64_t domain(uint64_t localId) const {
    if (localId == 0) return 0;
    auto found = domains.find(localId);
    return found != domains.end() ? found->second : 0;
  }
};

}  // namespace gpuscope
