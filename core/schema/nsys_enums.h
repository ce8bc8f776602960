#pragma once
// The nsys enums of the trace format, declared once: the ENUM_* rows our files carry (ids, names and
// labels of real nsys 2025.3 exports), the ids our code refers to by name, and the labels by id.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuscope::nsys_enum {

struct EnumRow {
  int id;
  std::string_view name;
  std::string_view label;
};

// ENUM_NSYS_EVENT_CLASS: the eventClass values of CUPTI_ACTIVITY_KIND_RUNTIME and OSRT_API.
inline constexpr EnumRow kEventClassRows[] = {
    {0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
    {1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"},
    {27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"},
};

// ENUM_NSYS_EVENT_TYPE: the eventType values of NVTX_EVENTS.
inline constexpr EnumRow kEventTypeRows[] = {
    {34, "NvtxMark", "NvtxMark"},
    {59, "NvtxPushPopRange", "NvtxPushPopRange"},
    {60, "NvtxStartEndRange", "NvtxStartEndRange"},
    {75, "NvtxDomainCreate", "NvtxDomainCreate"},
    {76, "NvtxDomainDestroy", "NvtxDomainDestroy"},
};

// ENUM_CUDA_MEMCPY_OPER: CUPTI_ACTIVITY_KIND_MEMCPY.copyKind.
inline constexpr EnumRow kMemcpyOperRows[] = {
    {0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"},
    {1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
    {2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"},
    {3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
    {4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"},
    {5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
    {6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"},
    {7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
    {8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"},
    {9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
    {10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
    {11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device"},
    {12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host"},
    {13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device"},
};

// ENUM_CUDA_MEM_KIND: srcKind / dstKind of memcpys and memKind of memsets.
inline constexpr EnumRow kMemKindRows[] = {
    {0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
    {1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
    {2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
    {3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
    {4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
    {5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static"},
    {6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static"},
    {7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"},
};

// ENUM_CUDA_DEV_MEM_EVENT_OPER: CUDA_GPU_MEMORY_USAGE_EVENTS.memoryOperationType.
inline constexpr EnumRow kDevMemEventOperRows[] = {
    {0, "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation"},
    {1, "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation"},
};
inline constexpr int kMemKindPageable = 0;
inline constexpr int kMemKindPinned = 1;
inline constexpr int kMemKindDevice = 2;
inline constexpr int kMemKindUnknown = 7;
inline constexpr int kDevMemAllocation = 0;
inline constexpr int kDevMemDeallocation = 1;

// ENUM_SAMPLING_THREAD_STATE: COMPOSITE_EVENTS.threadState and SCHED_EVENTS.threadState.
inline constexpr EnumRow kSamplingThreadStateRows[] = {
    {0, "Unknown", "Unknown"},
    {1, "Running", "Running"},
    {2, "Interruptible", "Interruptible"},
    {3, "Uninterruptible", "Uninterruptible"},
    {4, "Stopped", "Stopped"},
    {5, "Terminated", "Terminated"},
    {6, "Unscheduled", "Unscheduled"},
    {7, "Waiting", "Waiting"},
    {8, "OSRuntime", "OS runtime"},
    {9, "Initialized", "Initialized"},
    {10, "Transition", "Transition"},
};

// ENUM_SCHEDULING_THREAD_BLOCK: SCHED_EVENTS.threadBlock, why a thread was switched out.
inline constexpr EnumRow kSchedulingThreadBlockRows[] = {
    {0, "NonBlocked", "NonBlocked"},
    {1, "Unknown", "Unknown"},
    {2, "SigSuspend", "SigSuspend"},
    {3, "Stopped", "Stopped"},
    {4, "Nanosleep", "Nanosleep"},
    {5, "Intr", "Intr"},
    {6, "Mutex", "Mutex"},
    {7, "CondVar", "CondVar"},
    {8, "Sem", "Sem"},
    {9, "Join", "Join"},
    {10, "SigWaitInfo", "SigWaitInfo"},
    {11, "WaitCtx", "WaitCtx"},
    {12, "Send", "Send"},
    {13, "Receive", "Receive"},
    {14, "Reply", "Reply"},
    {15, "Stack", "Stack"},
    {16, "WaitThread", "WaitThread"},
    {17, "WaitPage", "WaitPage"},
    {18, "NetSend", "NetSend"},
    {19, "NetReply", "NetReply"},
    {20, "FreePage", "FreePage"},
    {21, "PageIn", "PageIn"},
    {22, "PoolAllocation", "PoolAllocation"},
    {23, "DelayExecution", "DelayExecution"},
    {24, "Suspended", "Suspended"},
    {25, "UserRequest", "UserRequest"},
    {26, "EventPair", "EventPair"},
    {27, "Queue", "Queue"},
    {28, "LPCReceive", "LPCReceive"},
    {29, "LPCReply", "LPCReply"},
    {30, "VirtualMemory", "VirtualMemory"},
    {31, "PageOut", "PageOut"},
    {32, "Rendezvous", "Rendezvous"},
    {33, "KeyedEvent", "KeyedEvent"},
    {34, "Terminated", "Terminated"},
    {35, "ProcessInSwap", "ProcessInSwap"},
    {36, "CPURateControl", "CPURateControl"},
    {37, "WrCalloutStack", "WrCalloutStack"},
    {38, "Kernel", "Kernel"},
    {39, "Resource", "Resource"},
    {40, "PushLock", "PushLock"},
    {41, "WindowsMutex", "WindowsMutex"},
    {42, "QuantumEnd", "QuantumEnd"},
    {43, "DispatchInt", "DispatchInt"},
    {44, "Preempted", "Preempted"},
    {45, "YieldExecution", "YieldExecution"},
    {46, "FastMutex", "FastMutex"},
    {47, "GuardedMutex", "GuardedMutex"},
    {48, "Rundown", "Rundown"},
    {49, "ReadyToRun", "ReadyToRun"},
    {50, "AlertByThreadId", "AlertByThreadId"},
    {51, "DeferredPreempt", "DeferredPreempt"},
    {52, "PhysicalFault", "PhysicalFault"},
};

// ENUM_STACK_UNWIND_METHOD: SAMPLING_CALLCHAINS.unwindMethod.
inline constexpr EnumRow kStackUnwindMethodRows[] = {
    {0, "Unknown", "Unknown"},
    {1, "FramePointer", "Frame pointer"},
    {2, "UnwindTable", "Unwind table"},
    {3, "LR_FramePointer", "LR frame pointer"},
    {4, "LR_UnwindTable", "LR unwind table"},
    {5, "KernelContext", "Kernel context"},
    {6, "DWARF_EH", "DWARF EH"},
    {7, "DWARF_DF", "DWARF DF"},
    {8, "LBR", "LBR"},
    {1000, "Undefined", "Undefined"},
};

// Ids our code refers to by name (ENUM_NSYS_EVENT_CLASS, ENUM_NSYS_EVENT_TYPE, ENUM_CUDA_MEMCPY_OPER,
// ENUM_CUDA_MEM_KIND, as listed above).
inline constexpr int kEventClassCudaRuntime = 0;
inline constexpr int kEventClassCudaDriver = 1;
inline constexpr int kEventClassOsRuntime = 27;
inline constexpr int kNvtxMark = 34;
inline constexpr int kNvtxPushPopRange = 59;
inline constexpr int kNvtxStartEndRange = 60;
inline constexpr int kNvtxDomainCreate = 75;
inline constexpr int kNvtxDomainDestroy = 76;
inline constexpr int kCopyUnknown = 0;
inline constexpr int kCopyHtoD = 1;
inline constexpr int kCopyDtoH = 2;
inline constexpr int kCopyHtoA = 3;
inline constexpr int kCopyAtoH = 4;
inline constexpr int kCopyAtoA = 5;
inline constexpr int kCopyAtoD = 6;
inline constexpr int kCopyDtoA = 7;
inline constexpr int kCopyDtoD = 8;
inline constexpr int kCopyHtoH = 9;
inline constexpr int kCopyPtoP = 10;
inline constexpr int kMemPageable = 0;
inline constexpr int kMemPinned = 1;
inline constexpr int kMemDevice = 2;
inline constexpr int kMemManaged = 4;
inline constexpr int kMemManagedStatic = 6;
inline constexpr int kMemUnknown = 7;
// ENUM_SAMPLING_THREAD_STATE, ENUM_SCHEDULING_THREAD_BLOCK and ENUM_STACK_UNWIND_METHOD, as listed above.
inline constexpr int kThreadStateUnknown = 0;
inline constexpr int kThreadStateRunning = 1;
inline constexpr int kThreadStateInterruptible = 2;
inline constexpr int kThreadStateUninterruptible = 3;
inline constexpr int kThreadStateTerminated = 5;
inline constexpr int kThreadBlockNonBlocked = 0;
inline constexpr int kThreadBlockUnknown = 1;
inline constexpr int kThreadBlockPreempted = 44;
inline constexpr int kUnwindUnknown = 0;
inline constexpr int kUnwindFramePointer = 1;
inline constexpr int kUnwindDwarfEh = 6;

// The label of a row of ROWS by ID, or "" when ROWS has no such id.
template <size_t N>
constexpr std::string_view labelOf(const EnumRow (&rows)[N], int64_t id) {
  for (const EnumRow& row : rows) {
    if (row.id == id) return row.label;
  }
  return {};
}

// "Host-to-Device", "Unified Device-to-Host", ...: ENUM_CUDA_MEMCPY_OPER's label of a memcpy's copyKind.
constexpr std::string_view memcpyKindLabel(int64_t copyKind) { return labelOf(kMemcpyOperRows, copyKind); }
// "Pageable", "Device", ...: ENUM_CUDA_MEM_KIND's label of a memory kind.
constexpr std::string_view memoryKindLabel(int64_t memKind) { return labelOf(kMemKindRows, memKind); }

// "[CUDA memcpy Host-to-Device]": how nsys names a memory copy (stats reports, the timeline) whose copy
// kind is labelled KIND_LABEL, as a file's ENUM_CUDA_MEMCPY_OPER or memcpyKindLabel gives it; "Unknown"
// when the label is empty. The one place this name is spelled.
inline std::string memcpyOperationName(std::string_view kindLabel) {
  return "[CUDA memcpy " + std::string(kindLabel.empty() ? "Unknown" : kindLabel) + "]";
}
// The same name by copyKind, with the labels of memcpyKindLabel.
inline std::string memcpyOperationName(int64_t copyKind) { return memcpyOperationName(memcpyKindLabel(copyKind)); }
// How nsys names every memset, in the same places. The one place this name is spelled.
inline constexpr std::string_view kMemsetOperationName = "[CUDA memset]";

}  // namespace gpuscope::nsys_enum
