#pragma once
// The CUDA API calls of a trace by (process, correlationId): how GPU work finds the call that launched it.
// Correlation ids are unique only within a process, so the process is part of the key.
#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/db/sqlite_database.h"

namespace gpuscope {

struct ApiCall {
  int64_t start = 0;
  int64_t end = 0;
  int64_t globalTid = 0;
  int64_t nameId = 0;
};

class ApiCallIndex {
 public:
  // Loads CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver calls); requires the table.
  explicit ApiCallIndex(const Database& db);

  // The call of process GLOBAL_PID with CORRELATION_ID, or nullptr.
  const ApiCall* find(int64_t globalPid, int64_t correlationId) const;
  // The call's function name as nsys prints it (version tag dropped).
  const std::string& name(const ApiCall& call) const;

 private:
  struct Key {
    int64_t process;
    int64_t correlationId;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const noexcept;
  };
  std::unordered_map<Key, ApiCall, KeyHash> calls_;
  std::unordered_map<int64_t, std::string> names_;
  std::string unnamed_;
};

}  // namespace gpuscope
