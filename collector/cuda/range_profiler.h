#pragma once
// `gpuscope record --metrics roofline`, inside the recorded process: CUPTI's range profiler (auto range,
// kernel replay) started and stopped around each selected kernel launch, so that every profiled launch
// gets its own counters, keyed by the launch's correlation id like its activity record.
//
// Launches are selected as ncu's -k/-c select them: GPUSCOPE_KERNEL_REGEX is searched in the demangled
// kernel name, GPUSCOPE_KERNEL_COUNT caps the profiled launches across every process of the recording.
#include <cupti.h>

namespace gpuscope::inject {
class ProcessRecorder;
}

namespace gpuscope::cuda {

// GPUSCOPE_METRICS=roofline was set by `gpuscope record`.
bool rangeProfilingRequested();

// The callback the injection subscribes to CUPTI with when profiling was requested (CUPTI allows one
// subscriber per process, so the activity tracer and the profiler share it).
void CUPTIAPI rangeProfilerCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data);

// Reads the selection from the environment and turns on the launch callbacks of SUBSCRIBER. False, with a
// diagnostic sent to the recorder, when it cannot (a bad regex, CUPTI refusing the callbacks).
bool startRangeProfiling(inject::ProcessRecorder& recorder, CUpti_SubscriberHandle subscriber);

}  // namespace gpuscope::cuda
