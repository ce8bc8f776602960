#pragma once
// The bottleneck verdict: a run, or a part of it such as an NVTX range, sorted into one class by what
// limited it, with the measured shares that decided it.
//
// The run's verdict judges its steady state (judged_window.h: the NVTX steps past the first, else from the
// second launch of the most repeated kernel, else the whole run), with start-up set apart and summarized
// (startup_summary.h); --range/--nvtx choose another window. It is measured on the driving thread (the host
// thread with the most CUDA API time). The window W splits into four parts:
//   gpu busy  = time any GPU ran a kernel, memcpy or memset, overlaps counted once; itself split into
//               kernels (a kernel ran), copies (a memcpy ran, no kernel) and memsets (only a memset ran)
//   sync      = GPU idle while the thread waited in a synchronizing call (cuda_call_kind.h: *Synchronize,
//               synchronous cudaMemcpy/cudaMemset)
//   cuda api  = GPU idle while the thread was in another CUDA API call (launches, allocations)
//   cpu       = GPU idle while the thread was outside every CUDA call (Python, data loading); the part of
//               it in gaps under kDispatchGapNs between two calls is dispatch: the framework's own work
//               between launches (a PyTorch op's dispatcher), which grows with the launches, not with
//               the program's host work
// The classes, decided in this order:
//   transfer         gpu busy >= 50% of W and copies + memsets >= 50% (kTransferShare) of gpu busy; or gpu
//                    busy < 50% and the thread was blocked in copies and memsets >= 50% of W (the ones
//                    blocking_copies lists: synchronous ones, and copies with pageable memory).
//   communication    gpu busy >= 50% of W and collective kernels (NCCL) ran with no compute kernel beside
//                    them >= 50% (kCommunicationShare) of gpu busy: the GPU mostly moved data between ranks or
//                    waited in a collective for a late rank (the straggler finding says which).
//   gpu_compute      gpu busy >= 50% of W (kGpuBoundShare): the GPU worked more than it waited.
//   memory           gpu bound, and kernels that their metrics (GPUSCOPE_KERNEL_METRICS) put under a
//                    memory roof take >= 50% (kMemoryBoundShare) of the window's kernel time; or, without
//                    kernel metrics, the GPU's sampled counters over the window (GPU_METRICS) show DRAM
//                    throughput above compute throughput (counter_evidence.h).
//   synchronization  otherwise the largest of sync, cuda api + dispatch (launch overhead) and cpu less
//   cuda_api         dispatch (host work) decides what the GPU waited on most (ties in this order).
//   cpu
//   none             no CUDA call and no GPU work in the window.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/verdict/counter_evidence.h"
#include "core/analysis/verdict/idle_host_samples.h"
#include "core/analysis/verdict/judged_window.h"
#include "core/analysis/verdict/memory_peak.h"
#include "core/analysis/verdict/run_activity.h"
#include "core/analysis/verdict/startup_summary.h"
#include "core/db/sqlite_database.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {

inline constexpr double kGpuBoundShare = 0.50;
inline constexpr double kMemoryBoundShare = 0.50;
inline constexpr double kTransferShare = 0.50;       // of gpu busy in copies and memsets
inline constexpr double kCommunicationShare = 0.50;  // of gpu busy in collectives alone
inline constexpr double kHostCopyBoundShare = 0.50;  // of W with the host blocked in copies and memsets

enum class BottleneckClass { GpuCompute, Memory, Transfer, Communication, Synchronization, CudaApi, Cpu, None };
// "gpu_compute", "memory", "transfer", "communication", "synchronization", "cuda_api", "cpu", "none".
std::string_view bottleneckClassName(BottleneckClass kind);

struct VerdictEvidence {
  TimeNs windowStart = 0;
  TimeNs windowEnd = 0;
  TimeNs wallNs = 0;  // summed over the windows (an NVTX range's instances)
  TimeNs gpuBusyNs = 0;
  TimeNs kernelBusyNs = 0;      // gpuBusyNs split: a kernel ran,
  TimeNs copyBusyNs = 0;        // a memcpy ran and no kernel,
  TimeNs memsetBusyNs = 0;      // only a memset ran
  TimeNs collectiveOnlyNs = 0;  // part of kernelBusyNs: collective kernels ran and no compute kernel
  TimeNs idleSyncNs = 0;        // GPU idle, split by what the driving thread was doing (the rules above)
  TimeNs idleApiNs = 0;
  TimeNs idleCpuNs = 0;
  TimeNs idleDispatchNs = 0;  // the part of idleCpuNs in gaps under kDispatchGapNs between CUDA calls
  TimeNs hostApiNs = 0;       // the driving thread's time in non-synchronizing CUDA calls, GPU idle or not
  TimeNs hostSyncNs = 0;      // and in synchronizing ones
  TimeNs hostCopyNs = 0;      // and in copies and memsets that blocked it (copyBlocksHost, memsetBlocksHost)
  TimeNs kernelNs = 0;        // kernel time inside the windows, overlaps counted per kernel
  size_t kernels = 0;         // kernels that start inside the windows
  std::optional<TimeNs> memoryBoundKernelNs;  // present where the trace has kernel metrics
  std::optional<CounterEvidence> counters;    // present where the trace has GPU metrics inside the windows
  std::string hostThread;                     // threadLabel() of the driving thread; empty without one
  IdleHostSamples idleHost;  // the run's cpu and cuda_api verdicts: its CPU samples while the GPU idled
  uint32_t pid = 0;
  uint32_t tid = 0;

  // PART / wallNs, 0 for an empty window.
  double share(TimeNs part) const;
  double memoryBoundShare() const;    // of kernelNs; 0 without metrics
  double transferShare() const;       // (copyBusyNs + memsetBusyNs) of gpuBusyNs; 0 when the GPU was idle
  double communicationShare() const;  // collectiveOnlyNs of gpuBusyNs; 0 when the GPU was idle
};

struct Verdict {
  BottleneckClass kind = BottleneckClass::None;
  VerdictEvidence evidence;
  // The run's verdict only (not a range's): which window was judged and why, and the start-up set apart.
  std::optional<JudgedWindow> judged;
  StartupSummary startup;
  std::vector<MemoryPeak> memoryPeaks;  // the run's verdict only: per GPU with memory usage events
};

// The class the evidence puts a window in (the rules at the top of this file).
BottleneckClass classify(const VerdictEvidence& evidence);

// What the verdict needs from a trace, read once, for the run and its NVTX ranges.
struct VerdictInputs {
  RunActivity activity;
  std::vector<int64_t> memoryBoundNameIds;  // StringIds of kernel names metrics show memory bound, sorted
  bool hasMetrics = false;
  std::shared_ptr<const GpuMetrics> gpuMetrics;  // never null; empty without GPU_METRICS
  std::vector<MemoryPeak> memoryPeaks;
  std::vector<NvtxRange> nvtx;  // every NVTX range, for finding the steady state; empty without NVTX_EVENTS
};
VerdictInputs loadVerdictInputs(const Database& db);

// The verdict over the windows (one, or an NVTX range's instances), each [start, end).
Verdict windowVerdict(const VerdictInputs& inputs, const std::vector<TimeInterval>& windows);
// The run's headline verdict: its steady state (judged_window.h), with start-up summarized.
Verdict runVerdict(const Database& db, const VerdictInputs& inputs);
// The run's verdict over a window the user chose (--range, --nvtx); REASON says which.
Verdict runVerdictOver(const Database& db, const VerdictInputs& inputs, TimeInterval window, std::string reason);

struct RangeVerdict {
  std::string name;  // the range's text, "domain:text" outside the default domain
  size_t instances = 0;
  Verdict verdict;
};
// One verdict per NVTX range name (every instance of it, on any thread, together), by first start.
// Empty when the file has no NVTX_EVENTS table.
std::vector<RangeVerdict> nvtxVerdicts(const Database& db, const VerdictInputs& inputs);

// One sentence with the numbers, e.g. "CPU bound: the GPU was busy 4.2% of 5.860 s (kernels 4.0%, copies
// 0.2%, memsets 0.0%) and idle 93.1% while the host thread python3 (pid 1, tid 1) ran outside CUDA calls,
// 2.5% while it was in CUDA API calls and 0.2% while it waited in synchronizing calls."
std::string verdictSentence(const Verdict& verdict);

}  // namespace gpuscope
