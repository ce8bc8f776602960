#pragma once
// The names of the trace-file tables, one constant each. Their columns, roles and groups are declared in
// the *_tables.cpp files of this folder; code outside core/schema names a table only through these.
#include <string_view>

namespace gpuscope::table {

// Strings and GPU work (CUPTI activity records).
inline constexpr std::string_view kStringIds = "StringIds";
inline constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
inline constexpr std::string_view kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
// Host-side tracing.
inline constexpr std::string_view kNvtx = "NVTX_EVENTS";
inline constexpr std::string_view kOsrt = "OSRT_API";
inline constexpr std::string_view kThreadNames = "ThreadNames";
inline constexpr std::string_view kProcesses = "PROCESSES";
// CPU sampling and scheduling (nsys --sample, --cpuctxsw, --osrt-backtrace-threshold).
inline constexpr std::string_view kCompositeEvents = "COMPOSITE_EVENTS";
inline constexpr std::string_view kSamplingCallchains = "SAMPLING_CALLCHAINS";
inline constexpr std::string_view kSchedEvents = "SCHED_EVENTS";
inline constexpr std::string_view kOsrtCallchains = "OSRT_CALLCHAINS";
// GPU hardware metrics (nsys --gpu-metrics-devices) and device memory (nsys --cuda-memory-usage).
inline constexpr std::string_view kGpuMetrics = "GPU_METRICS";
inline constexpr std::string_view kTargetGpuMetrics = "TARGET_INFO_GPU_METRICS";
inline constexpr std::string_view kGpuMemoryUsage = "CUDA_GPU_MEMORY_USAGE_EVENTS";
// Target and export facts.
inline constexpr std::string_view kTargetGpu = "TARGET_INFO_GPU";
inline constexpr std::string_view kSessionStart = "TARGET_INFO_SESSION_START_TIME";
inline constexpr std::string_view kCudaStream = "TARGET_INFO_CUDA_STREAM";
inline constexpr std::string_view kMetaDataExport = "META_DATA_EXPORT";
// nsys enums.
inline constexpr std::string_view kEnumEventClass = "ENUM_NSYS_EVENT_CLASS";
inline constexpr std::string_view kEnumEventType = "ENUM_NSYS_EVENT_TYPE";
inline constexpr std::string_view kEnumMemcpyOper = "ENUM_CUDA_MEMCPY_OPER";
inline constexpr std::string_view kEnumMemKind = "ENUM_CUDA_MEM_KIND";
inline constexpr std::string_view kEnumDevMemEventOper = "ENUM_CUDA_DEV_MEM_EVENT_OPER";
inline constexpr std::string_view kEnumStackUnwindMethod = "ENUM_STACK_UNWIND_METHOD";
inline constexpr std::string_view kEnumSamplingThreadState = "ENUM_SAMPLING_THREAD_STATE";
inline constexpr std::string_view kEnumSchedulingThreadBlock = "ENUM_SCHEDULING_THREAD_BLOCK";
// gpuscope's own.
inline constexpr std::string_view kGpuscopeMeta = "GPUSCOPE_META";
inline constexpr std::string_view kDevicePeaks = "GPUSCOPE_DEVICE_PEAKS";
inline constexpr std::string_view kKernelMetrics = "GPUSCOPE_KERNEL_METRICS";
inline constexpr std::string_view kRanks = "GPUSCOPE_RANKS";

}  // namespace gpuscope::table
