#pragma once
// What the host was doing while the GPU waited: the driving thread's CPU samples in the GPU's idle time of
// the judged window, by the function that was running (with the Python code that called it, where the
// stacks hold Python frames). It names what a cpu or cuda_api verdict only measures.
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/verdict/run_activity.h"
#include "core/model/time_interval.h"

namespace gpuscope {

class Database;

inline constexpr size_t kTopHostFunctions = 5;

struct HostFunction {
  std::string name;    // leafWithPythonCaller (core/samples/frame_names.h)
  std::string module;  // the running function's module
  int64_t samples = 0;
  double share = 0;  // of the thread's samples while the GPU idled
};

struct IdleHostSamples {
  int64_t samples = 0;            // the driving thread's samples while the GPU idled in the window
  std::vector<HostFunction> top;  // most samples first, at most kTopHostFunctions
};

// HOST's samples inside WINDOWS; empty (0 samples) where the file has no CPU samples.
IdleHostSamples hostSamplesIn(const Database& db, const HostThread& host, std::vector<TimeInterval> windows);
// The driving thread's samples in the GPU's idle gaps inside WINDOW; empty without a driving thread.
IdleHostSamples idleHostSamples(const Database& db, const RunActivity& run, TimeInterval window);

// "sort (libc.so.6) 41%, prepare (train.py) → rfft (numpy) 20%": the top functions with their shares.
std::string hostFunctionsText(const IdleHostSamples& samples);

}  // namespace gpuscope
