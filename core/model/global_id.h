#pragma once
// GlobalId: the nsys serialized id, globalTid = hw << 56 | vm << 48 | pid << 24 | tid. This is the one
// home of that layout: C++ reads it through the functions below, SQL through the sql* helpers, and
// .ci/check-vocabulary fails where the mask or the shift is written out anywhere else.
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuscope::global_id {

inline constexpr int kPidShift = 24;
inline constexpr int64_t kFieldMask = 0xFFFFFF;  // pid and tid are 24 bits each
inline constexpr int kHwShift = 56;
inline constexpr uint32_t kHwValues = 256;  // hw is 8 bits: the ids a merge can give its inputs there

constexpr uint32_t pid(int64_t globalId) { return static_cast<uint32_t>((globalId >> kPidShift) & kFieldMask); }
constexpr uint32_t tid(int64_t globalId) { return static_cast<uint32_t>(globalId & kFieldMask); }
constexpr uint32_t vm(int64_t globalId) { return static_cast<uint32_t>((globalId >> 48) & 0xFF); }
constexpr uint32_t hw(int64_t globalId) { return static_cast<uint32_t>((globalId >> 56) & 0xFF); }
// The globalPid of the process a globalTid belongs to (tid bits cleared).
constexpr int64_t processOf(int64_t globalTid) { return globalTid & ~kFieldMask; }
constexpr int64_t make(uint32_t hwId, uint32_t vmId, uint32_t pidValue, uint32_t tidValue) {
  return (int64_t{hwId} << 56) | (int64_t{vmId} << 48) | ((int64_t{pidValue} & kFieldMask) << kPidShift) |
         (int64_t{tidValue} & kFieldMask);
}
// GLOBALID with ADD added to its hw field, vm, pid and tid kept: how a merge keeps its inputs' processes
// apart. hw(GLOBALID) + ADD must stay below kHwValues.
constexpr int64_t addHw(int64_t globalId, uint32_t add) {
  return make(hw(globalId) + add, vm(globalId), pid(globalId), tid(globalId));
}

// The same fields as SQL expressions over an integer column (or any SQL expression) COLUMN:
// sqlPid("r.globalTid") is "((r.globalTid >> 24) & 16777215)".
inline std::string sqlPid(std::string_view column) {
  return "((" + std::string(column) + " >> " + std::to_string(kPidShift) + ") & " + std::to_string(kFieldMask) + ")";
}
inline std::string sqlTid(std::string_view column) {
  return "(" + std::string(column) + " & " + std::to_string(kFieldMask) + ")";
}
// The hw field of COLUMN, and COLUMN with ADD added to its hw field (addHw; NULL stays NULL). The field is
// rebuilt by shifts rather than by adding ADD << 56, which would overflow SQLite's integers into REAL
// once hw reaches 128 (the sign bit).
inline std::string sqlHw(std::string_view column) {
  return "((" + std::string(column) + " >> " + std::to_string(kHwShift) + ") & 255)";
}
inline std::string sqlAddHw(std::string_view column, uint32_t add) {
  std::string lowBits = std::to_string((int64_t{1} << kHwShift) - 1);
  return "(((" + sqlHw(column) + " + " + std::to_string(add) + ") << " + std::to_string(kHwShift) + ") | (" +
         std::string(column) + " & " + lowBits + "))";
}

// An SQL condition that the global ids in columns A and B (a globalTid or a globalPid each) belong to the
// same process: hw, vm and pid all equal.
inline std::string sqlSameProcess(std::string_view a, std::string_view b) {
  std::string shift = " >> " + std::to_string(kPidShift) + ")";
  return "(" + std::string(a) + shift + " = (" + std::string(b) + shift;
}

}  // namespace gpuscope::global_id
