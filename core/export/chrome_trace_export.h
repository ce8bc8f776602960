#pragma once
// Writing a trace as Chrome trace-event JSON in the shape the PyTorch profiler (Kineto) writes, so that
// Perfetto, chrome://tracing and Holistic Trace Analysis read it: "X" events with Kineto's categories and
// args (device, stream, correlation, External id, kernel launch configuration, bytes), NVTX ranges projected
// onto GPU streams (gpu_user_annotation), "ac2g" flows from each CUDA call to its GPU work,
// baseTimeNanoseconds, deviceProperties, distributedInfo and process/thread name metadata. Times are
// microseconds since baseTimeNanoseconds with three decimals, so they are exact to the nanosecond.
#include "core/export/export_facts.h"
#include "core/export/export_output.h"
#include "core/export/export_summary.h"
#include "core/model/trace.h"

namespace gpuscope {

// Streams the JSON to OUT (the caller commits it); the output is never held whole in memory.
ExportSummary writeChromeTrace(const Trace& trace, const ExportFacts& facts, ExportOutput& out);

}  // namespace gpuscope
