#pragma once
// RunActivity: what the verdict and the host-side findings read from a trace once: when any GPU was
// busy (and with what: kernels, copies, memsets), which GPU operations ran and which host thread's call
// launched each, and each host thread's CUDA API calls (outermost calls only, so a driver call inside a
// runtime call counts once), split into synchronizing calls and the others. Collective kernels (NCCL) are
// told apart from compute kernels: on a rank that waits for another, they run long without computing.
#include <cstdint>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/model/interval_set.h"

namespace gpuscope {

// Gaps between a thread's CUDA calls shorter than this are the framework dispatching its next launch (a
// PyTorch op's few microseconds between cudaLaunchKernel calls), not host work of its own.
inline constexpr TimeNs kDispatchGapNs = 20'000;

struct HostThread {
  int64_t globalTid = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string name;          // ThreadNames, else the process name; may be empty
  IntervalSet apiCalls;      // outermost CUDA API calls that do not wait for the GPU
  IntervalSet syncCalls;     // outermost calls that do (cuda_call_kind.h)
  IntervalSet copyCalls;     // calls whose copy or memset blocked the thread (copyBlocksHost, memsetBlocksHost):
                             // synchronous ones, and cudaMemcpyAsync with pageable memory
  IntervalSet dispatchGaps;  // gaps shorter than kDispatchGapNs between consecutive outermost calls
  TimeNs cudaTime = 0;       // both together
  size_t callCount = 0;      // outermost calls
};

struct KernelSpan {
  TimeNs start = 0;
  TimeNs end = 0;
  int64_t nameId = 0;   // StringIds id of the demangled name (the short name where there is none)
  int64_t process = 0;  // global_id::processOf its globalPid; 0 where the trace does not say
};

enum class GpuOpKind { Kernel, Copy, Memset };

// One kernel, memcpy or memset, with the CUDA call that launched it (joined by correlationId within its
// process); launchTid 0 where the trace holds no such call.
struct GpuOp {
  TimeNs start = 0;
  TimeNs end = 0;
  GpuOpKind kind = GpuOpKind::Kernel;
  int64_t nameId = 0;       // kernels: StringIds id of the demangled (else short) name; 0 for the others
  int64_t launchTid = 0;    // globalTid of the launching thread
  TimeNs launchStart = 0;   // start of the launching call
  int64_t process = 0;      // global_id::processOf its globalPid; 0 where the trace does not say
  bool collective = false;  // a collective kernel (NCCL: HTA's communication type)
};

struct RunActivity {
  IntervalSet gpuBusy;              // kernels, memcpys and memsets of every GPU (start > 0, as nsys's rules)
  IntervalSet kernelBusy;           // the same, kernels only
  IntervalSet kernelOrCopyBusy;     // kernels and memcpys
  IntervalSet copyBusy;             // memcpys only
  IntervalSet memsetBusy;           // memsets only
  IntervalSet collectiveBusy;       // collective kernels (NCCL), which wait on the other ranks
  IntervalSet computeBusy;          // the other kernels
  std::vector<KernelSpan> kernels;  // by start
  std::vector<GpuOp> ops;           // every GPU operation, by start
  std::vector<HostThread> threads;  // threads with CUDA API calls, the most CUDA time first
  TimeNs first = 0;                 // the span of the GPU work, first operation to last end (without GPU
  TimeNs last = 0;                  // work, of the CUDA calls); first == last: none
  TimeNs cudaFirst = 0;             // the first CUDA call or GPU operation, whichever came first (start-up
  TimeNs cudaLast = 0;              // begins here) and the last end of either
  // The thread that drives the GPU: the one with the most CUDA API time; nullptr without CUDA calls.
  const HostThread* drivingThread() const { return threads.empty() ? nullptr : &threads.front(); }
};

RunActivity loadRunActivity(const Database& db);
// The part of DB's activity that PROCESSES (global_id::processOf values, sorted) did; empty: all of it. What a
// rule narrowed to one rank (AnalysisWindow::processes) looks at.
RunActivity loadRunActivity(const Database& db, const std::vector<int64_t>& processes);

// The part of RUN that processes KEEP (global_id::processOf values, sorted) did: their GPU work and host
// threads, with every busy set and span recomputed from those alone. A rank's activity in a file of ranks.
RunActivity activityOfProcesses(const RunActivity& run, const std::vector<int64_t>& keep);

// "python3 (pid 123, tid 125)", or "pid 123, tid 125" without a name.
std::string threadLabel(const HostThread& thread);

}  // namespace gpuscope
