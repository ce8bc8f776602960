#pragma once
// What the host was doing while the GPU waited: the driving thread's CPU samples in the GPU's idle time of
// the judged window, by function as core/samples/function_shares.h counts them (the program's own Python
// function where the stack has one, else the leaf; junk frames dropped, idle thread-pool samples apart),
// each with the native leaves it ran and its lines. It names what a cpu or cuda_api verdict only measures.
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/verdict/run_activity.h"
#include "core/model/time_interval.h"
#include "core/samples/function_shares.h"

namespace gpuscope {

class Database;

inline constexpr size_t kTopHostFunctions = 5;
// The sentence names a function or leaf after the first only from this share of the samples up (1%); the JSON
// keeps them all.
inline constexpr double kLeastNamedShare = 0.01;
// Leaves and lines a function shows in the sentence (the JSON holds them all).
inline constexpr size_t kTopHostLeaves = 2;

using HostFunction = FunctionShare;  // shares are of the working samples (function_shares.h)

struct IdleHostSamples {
  int64_t samples = 0;            // the driving thread's samples while the GPU idled in the window
  int64_t idlePoolSamples = 0;    // of those, samples in an idle thread pool's wait loop (counted apart)
  std::vector<HostFunction> top;  // most samples first, at most kTopHostFunctions
};

// HOST's samples inside WINDOWS; empty (0 samples) where the file has no CPU samples.
IdleHostSamples hostSamplesIn(const Database& db, const HostThread& host, std::vector<TimeInterval> windows);
// The driving thread's samples in the GPU's idle gaps inside WINDOW; empty without a driving thread.
IdleHostSamples idleHostSamples(const Database& db, const RunActivity& run, TimeInterval window);

// "decode_batch (hostprep.py) 80.0% (in PyObject_Malloc 30.0%, _PyEval_EvalFrameDefault 25.0%), sort (libc.so.6)
// 12.0%": the top functions with their shares and, where a function ran other code than itself, its top
// leaves.
std::string hostFunctionsText(const IdleHostSamples& samples);

}  // namespace gpuscope
