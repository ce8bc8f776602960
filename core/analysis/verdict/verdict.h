#pragma once
// The bottleneck verdict: a run, or a part of it such as an NVTX range, sorted into one class by what
// limited it, with the measured shares that decided it.
//
// Measured over a window W (for the run: from its first CUDA API call or GPU operation to the last end),
// on the driving thread (the host thread with the most CUDA API time):
//   gpu busy  = time any GPU ran a kernel, memcpy or memset, overlaps counted once        / W
//   cuda api  = time the thread spent in CUDA API calls that do not wait for the GPU        / W
//   sync      = time it spent in calls that wait for the GPU (cuda_call_kind.h: *Synchronize,
//               synchronous cudaMemcpy/cudaMemset)                                          / W
//   cpu       = time it spent outside every CUDA call while no GPU was busy                  / W
// The classes, decided in this order:
//   gpu_compute      gpu busy >= 70% (kGpuBoundShare): the GPU had work most of the time.
//   memory           gpu bound, and kernels that their metrics (GPUSCOPE_KERNEL_METRICS) put under a
//                    memory roof take >= 50% (kMemoryBoundShare) of the window's kernel time.
//   synchronization  otherwise the largest of sync, cuda api and cpu decides (ties in this order):
//   cuda_api         what the host did instead of feeding the GPU.
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

inline constexpr double kGpuBoundShare = 0.70;
inline constexpr double kMemoryBoundShare = 0.50;

enum class BottleneckClass { GpuCompute, Memory, Synchronization, CudaApi, Cpu, None };
// "gpu_compute", "memory", "synchronization", "cuda_api", "cpu", "none".
std::string_view bottleneckClassName(BottleneckClass kind);

struct VerdictEvidence {
  TimeNs windowStart = 0;
  TimeNs windowEnd = 0;
  TimeNs wallNs = 0;  // summed over the windows (an NVTX range's instances)
  TimeNs gpuBusyNs = 0;
  TimeNs hostApiNs = 0;
  TimeNs hostSyncNs = 0;
  TimeNs hostCpuWhileGpuIdleNs = 0;
  TimeNs kernelNs = 0;                        // kernel time inside the windows, overlaps counted per kernel
  size_t kernels = 0;                         // kernels that start inside the windows
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
// The whole run: [activity.first, activity.last).
Verdict runVerdict(const VerdictInputs& inputs);

struct RangeVerdict {
  std::string name;  // the range's text, "domain:text" outside the default domain
  size_t instances = 0;
  Verdict verdict;
};
// One verdict per NVTX range name (every instance of it, on any thread, together), by first start.
// Empty when the file has no NVTX_EVENTS table.
std::vector<RangeVerdict> nvtxVerdicts(const Database& db, const VerdictInputs& inputs);

// One sentence with the numbers, e.g. "CPU bound: the GPU was busy 4.2% of 5.86 s; the host thread
// python3 (pid 1, tid 1) spent 71.0% of it outside CUDA calls while the GPU was idle, 5.1% in CUDA API
// calls and 0.3% waiting in synchronization."
std::string verdictSentence(const Verdict& verdict);

}  // namespace gpuscope
