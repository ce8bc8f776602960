#pragma once
// GlobalId: the nsys serialized id, globalTid = hw << 56 | vm << 48 | pid << 24 | tid.
#include <cstdint>

namespace gpuscope::global_id {

constexpr uint32_t pid(int64_t globalId) { return static_cast<uint32_t>((globalId >> 24) & 0xFFFFFF); }
constexpr uint32_t tid(int64_t globalId) { return static_cast<uint32_t>(globalId & 0xFFFFFF); }
constexpr uint32_t vm(int64_t globalId) { return static_cast<uint32_t>((globalId >> 48) & 0xFF); }
constexpr uint32_t hw(int64_t globalId) { return static_cast<uint32_t>((globalId >> 56) & 0xFF); }
// The globalPid of the process a globalTid belongs to (tid bits cleared).
constexpr int64_t processOf(int64_t globalTid) { return globalTid & ~int64_t{0xFFFFFF}; }
constexpr int64_t make(uint32_t hwId, uint32_t vmId, uint32_t pidValue, uint32_t tidValue) {
  return (int64_t{hwId} << 56) | (int64_t{vmId} << 48) | (int64_t{pidValue & 0xFFFFFF} << 24) |
         int64_t{tidValue & 0xFFFFFF};
}

}  // namespace gpuscope::global_id
