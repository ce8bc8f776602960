#pragma once
// StartupSummary: what a run did before the window its verdict judges (judged_window.h): how long, how
// much of it the GPU worked, and where the driving host thread spent it (in CUDA calls, by the calls'
// names, and outside them: imports, Python, reading data).
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/verdict/run_activity.h"
#include "core/db/sqlite_database.h"

namespace gpuscope {

inline constexpr size_t kStartupCallNames = 3;  // the longest CUDA calls the start-up line names

struct StartupSummary {
  TimeInterval span;
  TimeNs gpuBusyNs = 0;
  TimeNs hostCudaNs = 0;     // the driving thread's outermost CUDA calls inside the span
  TimeNs hostOutsideNs = 0;  // the rest of the span on that thread
  // The driving thread's CUDA calls by name inside the span (nested driver calls too, so that module loading
  // inside a launch shows), the longest first, at most kStartupCallNames.
  std::vector<std::pair<std::string, TimeNs>> longestCalls;
};

StartupSummary summarizeStartup(const Database& db, const RunActivity& run, TimeInterval span);

// "Start-up set apart: 3.412 s before the judged window, the host thread python3 (pid 1, tid 1) in CUDA calls
// 1.203 s (cudaMalloc 0.9 s, ...) and outside them 2.209 s; the GPU busy 1.2% of it." Empty for an empty span.
std::string startupSentence(const StartupSummary& startup, const std::string& hostThread);

}  // namespace gpuscope
