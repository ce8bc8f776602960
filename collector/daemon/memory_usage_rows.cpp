#include "collector/daemon/memory_usage_rows.h"

namespace gpuscope {

namespace {
// CUpti_ActivityMemoryPoolType.
constexpr uint32_t kPoolLocal = 1;
constexpr uint32_t kPoolImported = 2;
}  // namespace

MemoryUsageRow memoryUsageRow(const transport::MemoryUsageBody& body, int64_t start, int64_t globalPid,
                              std::string_view name) {
  MemoryUsageRow row;
  row.start = start;
  row.globalPid = globalPid;
  row.deviceId = body.deviceId;
  row.contextId = body.contextId;
  row.address = static_cast<int64_t>(body.address);
  row.pc = static_cast<int64_t>(body.pc);
  row.bytes = static_cast<int64_t>(body.bytes);
  row.memKind = body.memKind;
  row.memoryOperationType = body.operation;
  row.name = std::string(name);
  row.correlationId = body.correlationId;
  if (body.poolType == kPoolLocal) {
    row.streamId = body.streamId;
    row.localPoolAddress = static_cast<int64_t>(body.poolAddress);
    row.localPoolReleaseThreshold = static_cast<int64_t>(body.poolReleaseThreshold);
    row.localPoolSize = static_cast<int64_t>(body.poolSizeOrProcessId);
    row.localPoolUtilizedSize = static_cast<int64_t>(body.poolUtilizedSize);
  } else if (body.poolType == kPoolImported) {
    row.streamId = body.streamId;
    row.importedPoolAddress = static_cast<int64_t>(body.poolAddress);
    row.importedPoolProcessId = static_cast<int64_t>(body.poolSizeOrProcessId);
  }
  return row;
}

}  // namespace gpuscope
