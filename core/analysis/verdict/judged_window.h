#pragma once
// JudgedWindow: the part of a run the headline verdict judges, and why. A short profile spends much of its
// time starting up (context creation, module and library loading, PyTorch's import, cuBLAS handles, the
// first iteration's allocations), so judging from the first GPU operation lets start-up set the headline.
// The steady state is found, in this order:
//   1. NVTX steps: the default-domain ranges outermost on their thread, grouped by name with digits read as
//      one ("step 3" and "step 4" are "step N"). A range holds the GPU work its process launched while it
//      was open (any thread: PyTorch's autograd thread launches the backward pass). The group whose
//      ranges hold the most GPU time wins if it holds enough of all of it (stepsGpuShare: a quarter for 3
//      or more instances, since start-up copies can outweigh short steps; half for 2; 80% for a single
//      range wrapping the work). A group of fewer than 3 instances gives way to a group nested in it that
//      has 3 or more and half its GPU time (an "epoch" of "step"s). With 3 or more instances the first is
//      set apart as warm-up. The window runs from the first judged instance's start to the end of the GPU
//      work launched inside the judged instances (launches are asynchronous).
//   2. Repetition: without such ranges, from the launch of the second instance of the most repeated kernel
//      (3 instances or more) to the end of the GPU work.
//   3. Otherwise the whole run (RunActivity's first to last).
// Start-up is [the first CUDA call or GPU operation, window start); shut-down is [window end, the last).
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/verdict/run_activity.h"
#include "core/db/sqlite_database.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {

inline constexpr size_t kWarmupInstances = 3;     // from this many instances on, the first is warm-up
inline constexpr double kInnerStepsShare = 0.50;  // of its parent group's GPU time, for nested steps

// The share of all GPU time an NVTX group of INSTANCES ranges must hold to be the steady state.
double stepsGpuShare(size_t instances);

struct JudgedWindow {
  enum class Source { NvtxSteps, RepeatedKernel, WholeRun, User };
  Source source = Source::WholeRun;
  TimeInterval window;
  TimeInterval startup;   // empty (start == end) when the window starts with the CUDA activity
  TimeInterval shutdown;  // likewise at the end
  // Why this window, for people: "NVTX ranges 'step 1' to 'step 9' (9 of 10 named 'step N', the first set
  // apart as warm-up) launched 97.1% of the GPU time".
  std::string reason;
};

// "nvtx_steps", "repeated_kernel", "whole_run", "user".
std::string_view judgedWindowSourceName(JudgedWindow::Source source);

// The steady state of RUN (the rules at the top of this file). RANGES: every NVTX range of the trace (may
// be empty); DB names the repeated kernel.
JudgedWindow steadyStateWindow(const Database& db, const RunActivity& run, const std::vector<NvtxRange>& ranges);

// "<reason>; 93.214 ms, start-up 3.120 s set apart": the judged window for people.
std::string judgedWindowSentence(const JudgedWindow& judged);

// The window the user chose (--range, --nvtx), with start-up and shut-down around it. REASON says what it is.
JudgedWindow chosenWindow(const RunActivity& run, TimeInterval window, std::string reason);

// Where "times from the trace start" (the viewer's, --range's) count from: the first start above 0 of any
// kernel, copy, set, CUDA call, NVTX range or OS-runtime call in DB; 0 for an empty trace.
TimeNs traceStartNs(const Database& db);

// The range that made a flight recorder write the file (`gpuscope launch --trigger slow:NAME:Nx`), as its
// GPUSCOPE_META says (flight_trigger, flight_trigger_start_ns, flight_trigger_end_ns): the window to judge
// before any other; nothing for other files.
std::optional<JudgedWindow> triggeredWindow(const Database& db, const RunActivity& run);

// "step 3" -> "step N": the name an instance of a repeated range shares with its siblings.
std::string stepGroupName(std::string_view name);

}  // namespace gpuscope
