#pragma once
// A device allocation or free (the ring's MemoryUsageBody) -> a CUDA_GPU_MEMORY_USAGE_EVENTS row as nsys writes
// it: bytes positive for frees too, streamId only for stream-ordered (pool) allocations, the pool columns only
// for allocations from a pool, the variable's name only for static ones. Pure, and so tested without a GPU.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "collector/transport/records.h"
#include "core/schema/nsys_enums.h"

namespace gpuscope {

struct MemoryUsageRow {
  int64_t start = 0;
  int64_t globalPid = 0;
  int64_t deviceId = 0;
  int64_t contextId = 0;
  int64_t address = 0;
  int64_t pc = 0;
  int64_t bytes = 0;
  int64_t memKind = nsys_enum::kMemKindUnknown;
  int64_t memoryOperationType = 0;
  std::string name;  // empty: NULL
  int64_t correlationId = 0;
  std::optional<int64_t> streamId;
  std::optional<int64_t> localPoolAddress, localPoolReleaseThreshold, localPoolSize, localPoolUtilizedSize;
  std::optional<int64_t> importedPoolAddress, importedPoolProcessId;
};

// START is the event's trace time (the body's session time less the origin), NAME the text that followed.
MemoryUsageRow memoryUsageRow(const transport::MemoryUsageBody& body, int64_t start, int64_t globalPid,
                              std::string_view name);

}  // namespace gpuscope
