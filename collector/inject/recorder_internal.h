#pragma once
// What the parts of the injection library share beyond ProcessRecorder: the calling thread's state
// and the environment a traced process must pass on to the programs it executes.
#include <atomic>
#include <cstdint>

#include "collector/inject/capture_gate.h"
#include "collector/inject/process_recorder.h"

namespace gpuscope::inject {

// Per-thread state; trivially constructible so that reading it never runs an initializer.
struct ThreadState {
  uint64_t generation;  // the ring file generation the ring below belongs to (0: not attached)
  uint32_t ring;
  uint32_t tid;
  uint32_t busy;          // inside the recorder: a nested record (signal handler) is dropped
  uint32_t toolThread;    // one of gpuscope's own threads: its OS-runtime calls are not recorded
  int32_t nvtxDepth;      // open push/pop ranges, for nvtxRangePush's return value
  uint32_t captureDepth;  // nvtxDepth + 1 of the push that opened an NVTX capture range; 0: none
  uint64_t pushesKept;    // bit d: the push at depth d was recorded, so its pop is too (the gate may have moved)
};

extern __thread ThreadState t_threadState __attribute__((tls_model("initial-exec")));
extern std::atomic<bool> g_recording;
extern RecorderConfig g_config;

// The recorder, only when OS-runtime calls of this thread are to be recorded.
inline ProcessRecorder* osrtRecorder() {
  if (!g_recording.load(std::memory_order_relaxed) || !g_config.traceOsrt || !gateOpen()) return nullptr;
  const ThreadState& state = t_threadState;
  if (state.busy || state.toolThread) return nullptr;
  return ProcessRecorder::get();
}

// Marks the calling thread as one of gpuscope's (the CUDA injection's worker).
GPUSCOPE_EXPORT void markToolThread();

// "NAME=value" entries every executed program must inherit to be followed (LD_PRELOAD, the CUDA
// and NVTX injection paths, GPUSCOPE_*), null-terminated; empty when not recording.
const char* const* followEnvironment();

}  // namespace gpuscope::inject
