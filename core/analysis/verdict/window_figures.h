#pragma once
// WindowFigures: the three "how busy was the GPU" figures a user meets for one window, side by side with
// what each measures, so that they read as consistent instead of contradicting each other:
//   verdict  GPU busy: any kernel, copy or memset on any GPU, overlaps once, over the whole window;
//   HTA      computing: computation kernels only (no copies, sets or NCCL), on HTA's microsecond grid
//            (each start rounded up, each end down, so kernels of a microsecond or two nearly vanish),
//            over HTA's own span, from the driving process's first GPU operation in the window to its last;
//   Stats    kernel time: cuda_gpu_kern_sum's Total Time over the window (every kernel that shares time
//            with it, whole durations summed, concurrent kernels each counted).
#include <string>

#include "core/analysis/verdict/verdict.h"
#include "core/db/sqlite_database.h"

namespace gpuscope {

struct WindowFigures {
  TimeInterval window;
  TimeNs gpuBusyNs = 0;      // the verdict's
  int64_t htaComputeUs = 0;  // HTA's temporal breakdown, compute_time(us)
  int64_t htaSpanUs = 0;     // and kernel_time(us), its span
  TimeNs statsKernelNs = 0;  // cuda_gpu_kern_sum's Total Time
  size_t statsKernels = 0;   // and its Instances
};

// The figures of the run verdict's judged window (or any verdict's first window).
WindowFigures windowFigures(const Database& db, const VerdictInputs& inputs, const Verdict& verdict);

// One line: "Three figures for this window: GPU busy 15.6% (the verdict: ...); HTA computing 1.4% (...);
// Stats 55.0 ms of kernel time (...), 15.6% of the window."
std::string windowFiguresSentence(const WindowFigures& figures);

}  // namespace gpuscope
