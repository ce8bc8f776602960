#pragma once
// The CUDA side of the session gate (collector/inject/capture_gate.h): CUPTI's activity kinds that cost the
// program on every call (kernels, copies, API calls) are enabled only while the gate is open; the creation
// kinds (contexts, streams) stay on, so a window's file still names its streams. With
// `record --capture-range cudaProfilerApi`, cudaProfilerStart and cudaProfilerStop (and the driver's
// cuProfilerStart/cuProfilerStop) open and close the gate through CUPTI's API callbacks.
#include <cupti.h>

#include <cstdint>
#include <vector>

namespace gpuscope::cuda {

// Sets the kinds up: enables GATED now when the gate is open, and follows the gate from here on. Enables
// the profiler API callbacks on SUBSCRIBER (may be null: then cudaProfilerStart is not seen).
void followCaptureGate(CUpti_SubscriberHandle subscriber, std::vector<CUpti_ActivityKind> gated);

// For the subscriber's callback: true when ID was a profiler start or stop, handled here.
bool handleProfilerCallback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data);

// For the CUDA worker, every pass: applies a change of the gate made elsewhere (the recorder, another
// process). Returns the generation of a close that needs CUPTI flushed and acknowledged, or 0.
uint64_t followGateChanges();

}  // namespace gpuscope::cuda
