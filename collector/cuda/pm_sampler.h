#pragma once
// `gpuscope record --gpu-metrics`, inside the recorded process: CUPTI's PM sampling on every GPU the program
// creates a context on, the samples decoded on a thread of ours every few tens of milliseconds, evaluated
// with the profiler host API into the metric set's values (collector/gpu_metrics/metric_sets.h), put on the
// session clock and sent to the recorder, one GpuMetricSample record per sample. A GPU that cannot be
// sampled (no permission, another profiler holding its counters, a chip or CUPTI without PM sampling) is
// reported once, in one sentence, and the recording goes on without its metrics.
#include <cuda.h>
#include <cupti.h>

namespace gpuscope::inject {
class ProcessRecorder;
}

namespace gpuscope::cuda {

// GPUSCOPE_GPU_METRICS_HZ was set by `gpuscope record --gpu-metrics`.
bool pmSamplingRequested();

// Reads the frequency and set from the environment, turns on SUBSCRIBER's context-creation callback and starts
// the sampling thread. False, with the reason sent to the recorder, when it cannot.
bool startPmSampling(inject::ProcessRecorder& recorder, CUpti_SubscriberHandle subscriber);

// The resource callback saw CONTEXT created: its device is sampled from now on (once per device).
void pmSamplingSawContext(CUcontext context);

// At exit, before the driver is torn down: stops every GPU's sampling and sends the last samples.
void stopPmSampling();

}  // namespace gpuscope::cuda
