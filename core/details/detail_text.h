#pragma once
// Text of detail values: times, sizes, rates and the names of threads, processes and devices.
#include <cstdint>
#include <string>

#include "core/details/event_details.h"
#include "core/model/trace.h"

namespace gpuscope::detail_text {

// "797.876 ms (797876036 ns)": a time on the file's clock, readable and exact.
std::string time(TimeNs ns);
// "634.637 us": a duration; a signed one (queue latency) keeps its sign.
std::string duration(TimeNs ns);
// Queue latency, GPU work start minus the launching call's end: "1.2 us", or, when the work started while
// the call was still running (nsys then counts no queue time), "none (started 9.676 us before the call returned)".
std::string queueLatency(TimeNs workStart, TimeNs callEnd);
// "4224 B (4.13 KiB)"; "512 B" below a KiB.
std::string bytes(int64_t value);
// "12.35 GB/s" (decimal gigabytes per second) for BYTES moved in DURATION; "" when the duration is 0.
std::string throughput(int64_t bytes, TimeNs duration);
std::string number(int64_t value);
std::string percent(double value);  // "56.3 %"
// "#RRGGBB", or "#AARRGGBB" when not opaque.
std::string argbColour(uint32_t argb);

const ThreadInfo* findThread(const Trace& trace, int64_t globalTid);
const ProcessInfo* findProcess(const Trace& trace, uint32_t pid);
// "transpose (tid 469)", or "tid 470" for an unnamed thread.
std::string thread(const Trace& trace, int64_t globalTid);
// "./transpose (pid 469)".
std::string process(const Trace& trace, uint32_t pid);
// "NVIDIA H100 80GB HBM3 (device 0)".
std::string device(const Trace& trace, uint32_t id);

}  // namespace gpuscope::detail_text
