#pragma once
// RunActivity: what the verdict and the host-side findings read from a trace once: when any GPU was
// busy, which kernels ran, and each host thread's CUDA API calls (outermost calls only, so a driver
// call inside a runtime call counts once), split into synchronizing calls and the others.
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/verdict/interval_set.h"
#include "core/db/sqlite_database.h"

namespace gpuscope {

struct HostThread {
  int64_t globalTid = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string name;       // ThreadNames, else the process name; may be empty
  IntervalSet apiCalls;   // outermost CUDA API calls that do not wait for the GPU
  IntervalSet syncCalls;  // outermost calls that do (cuda_call_kind.h)
  TimeNs cudaTime = 0;    // both together
  size_t callCount = 0;   // outermost calls
};

struct KernelSpan {
  TimeNs start = 0;
  TimeNs end = 0;
  int64_t nameId = 0;  // StringIds id of the demangled name (the short name where there is none)
};

struct RunActivity {
  IntervalSet gpuBusy;              // kernels, memcpys and memsets of every GPU (start > 0, as nsys's rules)
  std::vector<KernelSpan> kernels;  // by start
  std::vector<HostThread> threads;  // threads with CUDA API calls, the most CUDA time first
  TimeNs first = 0;                 // the span of CUDA activity: the first call or GPU operation ...
  TimeNs last = 0;                  // ... to the last end (first == last: none)
  // The thread that drives the GPU: the one with the most CUDA API time; nullptr without CUDA calls.
  const HostThread* drivingThread() const { return threads.empty() ? nullptr : &threads.front(); }
};

RunActivity loadRunActivity(const Database& db);

// "python3 (pid 123, tid 125)", or "pid 123, tid 125" without a name.
std::string threadLabel(const HostThread& thread);

}  // namespace gpuscope
