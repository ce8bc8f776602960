#pragma once
// This process's view of the session gate (collector/transport/session_gate.h): whether events are
// recorded now, and the capture ranges a recorded process opens and closes itself (cudaProfilerStart/Stop,
// the named NVTX range). Without a gate file (a recorder from before gates) everything is recorded.
#include <atomic>
#include <cstdint>

#include "collector/inject/process_recorder.h"
#include "collector/transport/session_gate.h"

namespace gpuscope::inject {

extern transport::SessionGate* g_gate;

// True while events are recorded: one relaxed load on every recorded call's path.
inline bool gateOpen() {
  const transport::SessionGate* gate = g_gate;
  return !gate || gate->open.load(std::memory_order_relaxed) != 0;
}

// Maps SESSIONDIR's gate at start (ProcessRecorder's constructor).
void mapCaptureGate(const char* sessionDir);

// The gate's trigger is TRIGGER (and a gate exists).
GPUSCOPE_EXPORT bool capturesBy(transport::CaptureTrigger trigger);

// A capture range of TRIGGER begins on the calling thread: opens the gate when no range is under way and
// ranges are left (--capture-range-end). True when it opened it.
GPUSCOPE_EXPORT bool beginCaptureRange(transport::CaptureTrigger trigger);
// The range of TRIGGER ends: closes the gate, unless --capture-range-end none keeps it open.
GPUSCOPE_EXPORT void endCaptureRange(transport::CaptureTrigger trigger);

// The CUDA injection's: called on the thread that opened or closed the gate in this process, so CUPTI's
// activity kinds follow at once (kernels launched right after the NVTX push are in the window).
using GateListener = void (*)(bool open);
GPUSCOPE_EXPORT void registerGateListener(GateListener listener);
// The gate's generation (odd while open), for the CUDA worker to follow changes made by other processes
// and the recorder; 1 without a gate (open for good).
GPUSCOPE_EXPORT uint64_t gateGeneration();

}  // namespace gpuscope::inject
