#pragma once
// Row structs for TraceWriter: one per kind of record, fields named and typed as the nsys export columns.
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/model/trace_types.h"
#include "core/schema/nsys_enums.h"

namespace gpuscope {

// Names are given as text; the writer interns them into StringIds. A string_view only has to live
// for the duration of the append call.

struct KernelRow {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  uint32_t greenContextId = 0;
  uint32_t streamId = 0;
  uint32_t correlationId = 0;
  int64_t globalPid = 0;
  std::string_view demangledName{};
  std::string_view shortName{};
  std::string_view mangledName{};  // empty: NULL
  int launchType = 0;              // CUpti_ActivityLaunchType; 0 is a regular launch
  int cacheConfig = 0;
  int registersPerThread = 0;
  int gridX = 1, gridY = 1, gridZ = 1;
  int blockX = 1, blockY = 1, blockZ = 1;
  int64_t staticSharedMemory = 0;
  int64_t dynamicSharedMemory = 0;
  int64_t localMemoryPerThread = 0;
  int64_t localMemoryTotal = 0;
  int64_t gridId = 0;
  std::optional<int64_t> sharedMemoryExecuted{};
  std::optional<int64_t> graphNodeId{};
  std::optional<int> sharedMemoryLimitConfig{};
};

// CUDA runtime and driver API calls share CUPTI_ACTIVITY_KIND_RUNTIME, told apart by eventClass.
enum class CudaApiKind { Runtime, Driver };

struct CudaApiRow {
  TimeNs start = 0;
  TimeNs end = 0;
  CudaApiKind kind = CudaApiKind::Runtime;
  int64_t globalTid = 0;
  uint32_t correlationId = 0;
  std::string_view name{};  // as nsys writes it, e.g. "cudaLaunchKernel_v7000"
  int64_t returnValue = 0;
  std::optional<int64_t> callchainId{};
};

struct MemcpyRow {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  std::optional<uint32_t> greenContextId = 0;
  uint32_t streamId = 0;
  uint32_t correlationId = 0;
  int64_t globalPid = 0;
  int64_t bytes = 0;
  int copyKind = nsys_enum::kCopyUnknown;  // ENUM_CUDA_MEMCPY_OPER id
  int srcKind = nsys_enum::kMemPageable;   // ENUM_CUDA_MEM_KIND id
  int dstKind = nsys_enum::kMemPageable;
  std::optional<uint32_t> srcDeviceId{}, srcContextId{}, dstDeviceId{}, dstContextId{};  // peer copies
  std::optional<int> migrationCause{};
  std::optional<int64_t> graphNodeId{};
  std::optional<int64_t> virtualAddress{};
};

struct MemsetRow {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  std::optional<uint32_t> greenContextId = 0;
  uint32_t streamId = 0;
  uint32_t correlationId = 0;
  int64_t globalPid = 0;
  int value = 0;
  int64_t bytes = 0;
  int memKind = nsys_enum::kMemDevice;  // ENUM_CUDA_MEM_KIND id
  std::optional<int64_t> graphNodeId{};
};

struct SyncRow {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  std::optional<uint32_t> greenContextId{};
  uint32_t streamId = 0;
  uint32_t correlationId = 0;
  int64_t globalPid = 0;
  int syncType = 0;  // ENUM_CUPTI_SYNC_TYPE id
  int64_t eventId = 0xFFFFFFFF;
  int64_t eventSyncId = 0xFFFFFFFF;
};

// NVTX push/pop and start/end ranges and marks. The text is written inline in NVTX_EVENTS.text,
// or, for a registered string (nvtxDomainRegisterString), interned and written as textId.
struct NvtxRow {
  TimeNs start = 0;
  TimeNs end = 0;  // ignored for marks (written as NULL)
  int64_t globalTid = 0;
  std::optional<int64_t> endGlobalTid{};  // start/end ranges ended on another thread
  std::string_view text{};
  bool registeredText = false;
  int64_t domainId = 0;             // 0: the default domain
  std::optional<uint32_t> color{};  // ARGB
  std::optional<uint32_t> category{};
  std::optional<int64_t> rangeId{};  // start/end ranges
};

struct NvtxDomainRow {
  TimeNs start = 0;
  int64_t globalTid = 0;
  int64_t domainId = 0;
  std::string_view name{};
};

struct OsRuntimeRow {
  TimeNs start = 0;
  TimeNs end = 0;
  int64_t globalTid = 0;
  std::string_view name{};  // e.g. "pthread_mutex_lock"
  int64_t returnValue = 0;
  int nestingLevel = 0;
  std::optional<int64_t> callchainId{};
};

struct ProcessRow {
  int64_t globalPid = 0;
  uint32_t pid = 0;
  std::string_view name{};
};

struct ThreadNameRow {
  int64_t globalTid = 0;
  std::string_view name{};
  int priority = 0;
};

// Every TARGET_INFO_GPU column; unset optionals are written as NULL.
struct GpuInfoRow {
  int64_t vmId = 0;
  uint32_t id = 0;
  std::optional<std::string_view> name{}, busLocation{}, uuid{}, chipName{}, ctxswDevPath{}, ctrlDevPath{};
  std::optional<int> isDiscrete{};
  std::optional<int64_t> l2CacheSize{}, totalMemory{}, memoryBandwidth{}, clockRate{};
  std::optional<int> smCount{}, pwGpuId{};
  std::optional<int64_t> luid{};
  std::optional<int> cuDevice{}, revision{}, nodeMask{};
  std::optional<int64_t> constantMemory{};
  std::optional<int> maxIPC{}, maxRegistersPerBlock{};
  std::optional<int64_t> maxShmemPerBlock{}, maxShmemPerBlockOptin{}, maxShmemPerSm{};
  std::optional<int> maxRegistersPerSm{}, threadsPerWarp{}, asyncEngines{}, maxWarpsPerSm{}, maxBlocksPerSm{};
  std::optional<int> maxThreadsPerBlock{}, maxBlockDimX{}, maxBlockDimY{}, maxBlockDimZ{};
  std::optional<int64_t> maxGridDimX{}, maxGridDimY{}, maxGridDimZ{};
  std::optional<int> computeMajor{}, computeMinor{}, smMajor{}, smMinor{};
};

struct CudaStreamRow {
  uint32_t streamId = 0;
  int64_t hwId = 0;
  int64_t vmId = 0;
  uint32_t processId = 0;  // the pid, not the globalPid
  uint32_t contextId = 0;
  int64_t priority = 0;
  int64_t flag = 0;
};

}  // namespace gpuscope
