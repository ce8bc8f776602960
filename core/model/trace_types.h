#pragma once
// Small value types shared by the trace model and its queries.
#include <cstdint>
#include <string_view>

namespace gpuscope {

using TimeNs = int64_t;     // nanoseconds, on the trace file's clock
using StringId = uint32_t;  // index into Trace's string table

enum class TrackKind : uint8_t { CudaApi, Nvtx, OsRuntime, GpuKernels, GpuMemory };

std::string_view trackKindName(TrackKind kind);

// What shown times count from: the trace's first event (as the timeline's ruler, tooltips and --view do), or
// the recording session's clock, as the file stores them (nsys's "session time").
enum class TimeBase : uint8_t { Trace, Session };

// An event: its track, its lane (depth) in that track, and its index in the lane.
struct EventRef {
  uint32_t track = 0;
  uint32_t lane = 0;
  uint32_t index = 0;
  friend bool operator==(const EventRef&, const EventRef&) = default;
};

}  // namespace gpuscope
