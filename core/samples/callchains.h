#pragma once
// Callchains attached to traced calls: nsys's table::kOsrtCallchains (the backtrace of an OS-runtime call that
// lasted past --osrt-backtrace-threshold), keyed by OSRT_API.callchainId, one row per frame
// (stackDepth 0 = the leaf), with table::kSamplingCallchains's columns. gpuscope's recorder writes the same table.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/samples/cpu_samples.h"

namespace gpuscope {

class Database;

struct CallchainFrame {
  std::string symbol;
  std::string module;
  uint8_t flags = 0;  // SampleFrame's kUnresolved, kKernelMode, kSpecial
};

// The frames of callchain ID in TABLE, leaf first; empty when the file lacks the table or the id (nsys
// writes callchainId 0 for a call without one). Throws TraceError on a database error.
std::vector<CallchainFrame> readCallchain(const Database& db, std::string_view table, int64_t id);

}  // namespace gpuscope
