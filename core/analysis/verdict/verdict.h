#pragma once
// The bottleneck verdict: a run, or a part of it such as an NVTX range, sorted into one class by what
// limited it, with the measured shares that decided it.
//
// Measured over a window W (for the run: from its first GPU operation to the last one's end, so the start-up
// before any GPU work, imports and context creation, is left out; without GPU work, the span of its CUDA
// calls), on the driving thread (the host thread with the most CUDA API time). W splits into four parts:
//   gpu busy  = time any GPU ran a kernel, memcpy or memset, overlaps counted once
//   sync      = GPU idle while the thread waited in a synchronizing call (cuda_call_kind.h: *Synchronize,
//               synchronous cudaMemcpy/cudaMemset)
//   cuda api  = GPU idle while the thread was in another CUDA API call (launches, allocations)
//   cpu       = GPU idle while the thread was outside every CUDA call (Python, data loading)
// The classes, decided in this order:
//   gpu_compute      gpu busy >= 50% of W (kGpuBoundShare): the GPU worked more than it waited.
//   memory           gpu bound, and kernels that their metrics (GPUSCOPE_KERNEL_METRICS) put under a
//                    memory roof take >= 50% (kMemoryBoundShare) of the window's kernel time.
//   synchronization  otherwise the largest of sync, cuda api and cpu decides (ties in this order):
//   cuda_api         what the GPU waited on most.
//   cpu
//   none             no CUDA call and no GPU work in the window.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/verdict/run_activity.h"
#include "core/db/sqlite_database.h"

namespace gpuscope {

inline constexpr double kGpuBoundShare = 0.50;
inline constexpr double kMemoryBoundShare = 0.50;

enum class BottleneckClass { GpuCompute, Memory, Synchronization, CudaApi, Cpu, None };
// "gpu_compute", "memory", "synchronization", "cuda_api", "cpu", "none".
std::string_view bottleneckClassName(BottleneckClass kind);

struct VerdictEvidence {
  TimeNs windowStart = 0;
  TimeNs windowEnd = 0;
  TimeNs wallNs = 0;  // summed over the windows (an NVTX range's instances)
  TimeNs gpuBusyNs = 0;
  TimeNs idleSyncNs = 0;  // GPU idle, split by what the driving thread was doing (the rules above)
  TimeNs idleApiNs = 0;
  TimeNs idleCpuNs = 0;
  TimeNs hostApiNs = 0;   // the driving thread's time in non-synchronizing CUDA calls, GPU idle or not
  TimeNs hostSyncNs = 0;  // and in synchronizing ones
  TimeNs kernelNs = 0;    // kernel time inside the windows, overlaps counted per kernel
  size_t kernels = 0;     // kernels that start inside the windows
  std::optional<TimeNs> memoryBoundKernelNs;  // present where the trace has kernel metrics
  std::string hostThread;                     // threadLabel() of the driving thread; empty without one
  uint32_t pid = 0;
  uint32_t tid = 0;

  // PART / wallNs, 0 for an empty window.
  double share(TimeNs part) const;
  double memoryBoundShare() const;  // of kernelNs; 0 without metrics
};

struct Verdict {
  BottleneckClass kind = BottleneckClass::None;
  VerdictEvidence evidence;
};

// The class the evidence puts a window in (the rules at the top of this file).
BottleneckClass classify(const VerdictEvidence& evidence);

// What the verdict needs from a trace, read once, for the run and its NVTX ranges.
struct VerdictInputs {
  RunActivity activity;
  std::vector<int64_t> memoryBoundNameIds;  // StringIds of kernel names metrics show memory bound, sorted
  bool hasMetrics = false;
};
VerdictInputs loadVerdictInputs(const Database& db);

// The verdict over the windows (one, or an NVTX range's instances), each [start, end).
Verdict windowVerdict(const VerdictInputs& inputs, const std::vector<TimeInterval>& windows);
// The whole run: [activity.first, activity.last) (run_activity.h: the GPU work's span).
Verdict runVerdict(const VerdictInputs& inputs);

struct RangeVerdict {
  std::string name;  // the range's text, "domain:text" outside the default domain
  size_t instances = 0;
  Verdict verdict;
};
// One verdict per NVTX range name (every instance of it, on any thread, together), by first start.
// Empty when the file has no NVTX_EVENTS table.
std::vector<RangeVerdict> nvtxVerdicts(const Database& db, const VerdictInputs& inputs);

// One sentence with the numbers, e.g. "CPU bound: the GPU was busy 4.2% of 5.860 s and idle 93.1% while
// the host thread python3 (pid 1, tid 1) ran outside CUDA calls, 2.5% while it was in CUDA API calls and
// 0.2% while it waited in synchronizing calls."
std::string verdictSentence(const Verdict& verdict);

}  // namespace gpuscope
