#include "core/write/writer_statements.h"

#include <stdexcept>
#include <string>

#include "core/schema/trace_schema.h"

namespace gpuscope {

// clang-format off
const std::vector<InsertSpec>& insertSpecs() {
  static const std::vector<InsertSpec> specs = {
      {kStringStmt, table::kStringIds, {"id", "value"}},
      {kKernelStmt, table::kKernel,
       {"start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid",
        "demangledName", "shortName", "mangledName", "launchType", "cacheConfig", "registersPerThread", "gridX",
        "gridY", "gridZ", "blockX", "blockY", "blockZ", "staticSharedMemory", "dynamicSharedMemory",
        "localMemoryPerThread", "localMemoryTotal", "gridId", "sharedMemoryExecuted", "graphNodeId",
        "sharedMemoryLimitConfig"}},
      {kApiStmt, table::kRuntime,
       {"start", "end", "eventClass", "globalTid", "correlationId", "nameId", "returnValue", "callchainId"}},
      {kMemcpyStmt, table::kMemcpy,
       {"start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid", "bytes",
        "copyKind", "srcKind", "dstKind", "srcDeviceId", "srcContextId", "dstDeviceId", "dstContextId",
        "migrationCause", "graphNodeId", "virtualAddress"}},
      {kMemsetStmt, table::kMemset,
       {"start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid", "value",
        "bytes", "graphNodeId", "memKind"}},
      {kSyncStmt, table::kSync,
       {"start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid",
        "syncType", "eventId", "eventSyncId"}},
      {kNvtxStmt, table::kNvtx,
       {"start", "end", "eventType", "rangeId", "category", "color", "text", "globalTid", "endGlobalTid", "textId",
        "domainId"}},
      {kOsrtStmt, table::kOsrt,
       {"start", "end", "eventClass", "globalTid", "nameId", "returnValue", "nestingLevel", "callchainId"}},
      {kProcessStmt, table::kProcesses, {"globalPid", "pid", "name"}},
      {kThreadStmt, table::kThreadNames, {"nameId", "priority", "globalTid"}},
      {kGpuStmt, table::kTargetGpu,
       {"vmId", "id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory", "memoryBandwidth",
        "clockRate", "smCount", "pwGpuId", "uuid", "luid", "chipName", "cuDevice", "ctxswDevPath", "ctrlDevPath",
        "revision", "nodeMask", "constantMemory", "maxIPC", "maxRegistersPerBlock", "maxShmemPerBlock",
        "maxShmemPerBlockOptin", "maxShmemPerSm", "maxRegistersPerSm", "threadsPerWarp", "asyncEngines",
        "maxWarpsPerSm", "maxBlocksPerSm", "maxThreadsPerBlock", "maxBlockDimX", "maxBlockDimY", "maxBlockDimZ",
        "maxGridDimX", "maxGridDimY", "maxGridDimZ", "computeMajor", "computeMinor", "smMajor", "smMinor"}},
      {kStreamStmt, table::kCudaStream, {"streamId", "hwId", "vmId", "processId", "contextId", "priority", "flag"}},
      {kSessionStmt, table::kSessionStart, {"utcEpochNs", "utcTime", "localTime"}},
      {kExportStmt, table::kMetaDataExport, {"name", "value"}},
      {kMetaStmt, table::kGpuscopeMeta, {"name", "value"}},
  };
  return specs;
}
// clang-format on

void checkColumns(const InsertSpec& insert) {
  const TableSpec& spec = tableSpec(insert.table);
  for (std::string_view name : insert.columns) {
    bool known = false;
    for (const auto& column : spec.columns) known = known || column.name == name;
    if (!known) {
      throw std::logic_error("TraceWriter binds " + std::string(name) + ", which " + std::string(insert.table) +
                             " does not declare");
    }
  }
}

}  // namespace gpuscope
