#pragma once
// The binary records a recorded process writes into its rings (after a RecordHeader each).
//
// Bodies are plain structs of fixed-width fields; text follows the body, its length given in the
// body, and is neither NUL-terminated nor trusted to be. Strings that many records share (kernel
// and CUDA API names) are defined once by a String record and referred to by a process-local id.
#include <cstddef>
#include <cstdint>

namespace gpuscope::transport {

// Text longer than this is cut (NVTX messages, names).
inline constexpr size_t kMaxTextBytes = 16 * 1024;

enum class RecordType : uint16_t {
  Padding = 0,           // fills a ring up to its end; no body
  Process = 1,           // ProcessBody + process name
  ThreadName = 2,        // ThreadNameBody + name
  String = 3,            // StringBody + text: defines a process-local string id
  OsRuntime = 4,         // OsRuntimeBody (+ its backtrace, uint64_t each, leaf first); aux = OsrtFunction
  NvtxPush = 5,          // NvtxEventBody (+ text)
  NvtxPop = 6,           // NvtxPopBody
  NvtxMark = 7,          // NvtxEventBody (+ text)
  NvtxRangeStart = 8,    // NvtxEventBody (+ text)
  NvtxRangeEnd = 9,      // NvtxRangeEndBody
  NvtxDomain = 10,       // NvtxDomainBody + name
  NvtxString = 11,       // NvtxStringBody + text: nvtxDomainRegisterString
  NvtxCategory = 12,     // NvtxCategoryBody + name
  CudaApi = 13,          // CudaApiBody; aux = CudaApiKind (0 runtime, 1 driver)
  Kernel = 14,           // KernelBody
  Memcpy = 15,           // MemcpyBody
  Memset = 16,           // MemsetBody
  Sync = 17,             // SyncBody
  Gpu = 18,              // GpuBody + name, uuid, bus location, chip name (lengths in the body)
  Context = 19,          // ContextBody
  Stream = 20,           // StreamBody
  Dropped = 21,          // DroppedBody: records lost before they reached the ring
  Diagnostic = 22,       // DiagnosticBody + message: something the user should be told
  KernelMetrics = 23,    // KernelMetricsBody + kernel name + counters (counter_text.h): one profiled launch
  Rank = 24,             // RankBody + host name: the launcher's rank variables in the process's environment
  GpuMetricSample = 25,  // GpuMetricSampleBody + valueCount doubles: one PM sample of a GPU (--gpu-metrics)
  MemoryUsage = 26,      // MemoryUsageBody + variable name: a device allocation or free (--cuda-memory-usage)
  GpuMetricsState = 27,  // GpuMetricsStateBody + message: PM sampling of a GPU started, refused, or lost samples
  Count
};

struct ProcessBody {
  uint32_t pid;
  uint32_t ppid;
  uint32_t nameLength;
  uint32_t reserved;
};

enum class ThreadNameSource : uint32_t { Os = 0, Nvtx = 1 };
struct ThreadNameBody {
  uint32_t source;  // ThreadNameSource; an NVTX name wins over the OS name
  uint32_t nameLength;
};

struct StringBody {
  uint64_t id;
  uint32_t length;
  uint32_t reserved;
};

struct OsRuntimeBody {
  int64_t start;
  int64_t end;
  int64_t returnValue;
};
// A call that lasted past --osrt-backtrace-threshold is followed by its backtrace: the called function's
// address, then the return addresses of its callers, innermost first, at most this many.
inline constexpr size_t kMaxOsrtBacktraceFrames = 128;

// NVTX message and payload kinds, as in nvtxEventAttributes_t.
enum class NvtxText : uint8_t { None = 0, Inline = 1, Registered = 2 };
enum class NvtxPayload : uint8_t { None = 0, Uint64 = 1, Int64 = 2, Double = 3, Uint32 = 4, Int32 = 5, Float = 6 };

struct NvtxEventBody {
  int64_t time;
  uint64_t domain;          // process-local domain id; 0 is the default domain
  uint64_t rangeId;         // start/end ranges
  uint64_t payload;         // raw bits of the payload value
  uint64_t registeredText;  // NvtxString id when text == Registered
  uint32_t color;           // ARGB
  uint32_t category;
  uint8_t hasColor;
  uint8_t payloadType;  // NvtxPayload
  uint8_t text;         // NvtxText
  uint8_t reserved0;
  uint32_t textLength;  // inline text that follows
};

struct NvtxPopBody {
  int64_t time;
  uint64_t domain;
};

struct NvtxRangeEndBody {
  int64_t time;
  uint64_t rangeId;
};

struct NvtxDomainBody {
  int64_t time;
  uint64_t domain;
  uint32_t nameLength;
  uint32_t reserved;
};

struct NvtxStringBody {
  uint64_t id;
  uint64_t domain;
  uint32_t length;
  uint32_t reserved;
};

struct NvtxCategoryBody {
  uint64_t domain;
  uint32_t category;
  uint32_t nameLength;
};

enum class CudaApiKind : uint16_t { Runtime = 0, Driver = 1 };

struct CudaApiBody {
  int64_t start;
  int64_t end;
  uint64_t nameId;  // String id of the function name, e.g. "cudaLaunchKernel_v7000"
  uint32_t correlationId;
  uint32_t returnValue;
};

struct KernelBody {
  int64_t start;
  int64_t end;
  uint64_t demangledNameId;
  uint64_t shortNameId;
  uint64_t mangledNameId;  // 0 when the name is not mangled
  int64_t gridId;
  int64_t localMemoryTotal;
  uint64_t graphNodeId;
  uint32_t deviceId, contextId, streamId, correlationId;
  int32_t gridX, gridY, gridZ, blockX, blockY, blockZ;
  int32_t staticSharedMemory, dynamicSharedMemory;
  uint32_t localMemoryPerThread;
  uint32_t sharedMemoryExecuted;
  uint16_t registersPerThread;
  uint8_t launchType;
  uint8_t cacheConfigRequested;
  uint8_t cacheConfigExecuted;
  uint8_t sharedMemoryLimitConfig;
  uint8_t reserved[2];
};

struct MemcpyBody {
  int64_t start;
  int64_t end;
  uint64_t bytes;
  uint64_t graphNodeId;
  uint32_t deviceId, contextId, streamId, correlationId;
  uint32_t srcDeviceId, srcContextId, dstDeviceId, dstContextId;  // peer-to-peer copies only
  uint8_t copyKind;  // CUpti_ActivityMemcpyKind (= ENUM_CUDA_MEMCPY_OPER id)
  uint8_t srcKind;   // CUpti_ActivityMemoryKind
  uint8_t dstKind;
  uint8_t isPeer;
  uint32_t reserved;
};

struct MemsetBody {
  int64_t start;
  int64_t end;
  uint64_t bytes;
  uint64_t graphNodeId;
  uint32_t deviceId, contextId, streamId, correlationId;
  uint32_t value;
  uint16_t memoryKind;
  uint16_t reserved;
};

struct SyncBody {
  int64_t start;
  int64_t end;
  uint64_t eventSyncId;
  uint32_t contextId, streamId, correlationId, syncType;
  uint32_t eventId;
  uint32_t reserved;
};

// Everything TARGET_INFO_GPU holds; -1 where the driver did not say.
struct GpuBody {
  uint32_t deviceId;
  uint32_t nameLength, uuidLength, busLocationLength, chipNameLength;
  int32_t computeMajor, computeMinor;
  int32_t smCount, threadsPerWarp, maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock;
  int32_t maxRegistersPerBlock, maxRegistersPerSm;
  int32_t maxBlockDimX, maxBlockDimY, maxBlockDimZ;
  int32_t asyncEngines, isDiscrete, maxIPC;
  int64_t maxGridDimX, maxGridDimY, maxGridDimZ;
  int64_t maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm;
  int64_t l2CacheSize, totalMemory, memoryBandwidth, clockRate, constantMemory;
};

struct ContextBody {
  uint32_t contextId;
  uint32_t deviceId;
  uint32_t nullStreamId;
  uint32_t reserved;
};

struct StreamBody {
  uint32_t contextId;
  uint32_t streamId;
  uint32_t priority;  // as CUPTI reports it: -5 reads 4294967291, as in nsys exports
  uint32_t flag;      // CUpti_ActivityStreamFlag
};

enum class DropSource : uint32_t { Cupti = 0, CuptiBuffersFull = 1 };
struct DroppedBody {
  uint64_t count;
  uint32_t source;  // DropSource
  uint32_t reserved;
};

enum class DiagnosticLevel : uint32_t { Info = 0, Warning = 1, Error = 2 };
struct DiagnosticBody {
  uint32_t level;
  uint32_t length;
};

// One kernel launch profiled by the range profiler (`record --metrics roofline`). The counters travel as
// text ("name=value" lines, see counter_text.h) so that the arithmetic on them stays in one place, on the
// recorder's side, and a counter added later needs no new record layout.
struct KernelMetricsBody {
  uint32_t correlationId;  // the launching API call's, as in the kernel's activity record
  uint32_t deviceId;
  int64_t profilingNs;  // time the program was held up by this launch's profiling (set-up included)
  uint32_t nameLength;
  uint32_t countersLength;
};

// What a process's environment said of its rank when its image started (or it was forked), from the
// variables of core/ranks/rank_variables.h; written only when one of the rank variables was set.
struct RankBody {
  int64_t rank;
  int64_t localRank;      // -1: not set
  int64_t worldSize;      // -1: not set
  uint32_t rankVariable;  // index in rank_variables::kRank of the variable the rank came from
  uint32_t hostLength;    // the host name (uname's nodename) follows
};

// One PM sample of one GPU (`record --gpu-metrics`): its interval on the session clock and the values of the
// metric set's counters, in the set's order (collector/gpu_metrics/metric_sets.h), as CUPTI evaluated them.
struct GpuMetricSampleBody {
  int64_t start;
  int64_t end;
  uint32_t deviceId;
  uint16_t setIndex;    // in gpu_metrics::metricSets()
  uint16_t valueCount;  // doubles that follow
};

// One device allocation or free, from CUPTI's memory activity (CUpti_ActivityMemory4); kinds already in
// nsys's enums (ENUM_CUDA_MEM_KIND, ENUM_CUDA_DEV_MEM_EVENT_OPER). The variable's name follows, if any.
struct MemoryUsageBody {
  int64_t start;
  uint64_t address;
  uint64_t bytes;
  uint64_t pc;
  uint32_t deviceId, contextId, streamId, correlationId;
  uint16_t memKind;
  uint16_t operation;  // 0 allocation, 1 free
  uint32_t poolType;   // CUpti_ActivityMemoryPoolType: 0 none, 1 local, 2 imported
  uint64_t poolAddress;
  uint64_t poolReleaseThreshold;
  uint64_t poolSizeOrProcessId;  // the local pool's size, or the imported pool's process
  uint64_t poolUtilizedSize;
  uint32_t nameLength;
  uint32_t reserved;
};

// What became of PM sampling on one GPU; a message for the user follows where state is Refused or Lost.
enum class GpuMetricsState : uint32_t { Started = 0, Refused = 1, Lost = 2 };
struct GpuMetricsStateBody {
  uint32_t deviceId;
  uint32_t state;          // GpuMetricsState
  uint64_t samplesLost;    // Lost: samples the hardware buffer overflowed with or CUPTI could not evaluate
  uint32_t messageLength;  // the message follows
  uint32_t reserved;
};

}  // namespace gpuscope::transport
