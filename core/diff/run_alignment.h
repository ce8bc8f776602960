#pragma once
// RunAlignment: how run B's clock maps onto run A's, so the two timelines show the same moment of work.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

// Where each run is pinned: its first event, or the INDEX-th instance (0 is the first, in start order)
// of a named NVTX range or kernel.
struct AlignmentAnchor {
  enum class Kind { Start, NvtxRange, Kernel };
  Kind kind = Kind::Start;
  std::string name;  // NVTX: the range text, or "<domain>:<text>"; kernel: the short name
  size_t index = 0;
};

// B time t maps to A time t + offset. offset = anchor(A) - anchor(B) + manual shift.
struct RunAlignment {
  TimeNs offset = 0;
  TimeNs bToA(TimeNs tb) const { return tb + offset; }
  TimeNs aToB(TimeNs ta) const { return ta - offset; }
};

// The instances named NAME, by start time (then track, lane, index): kernels by their timeline (short)
// name, NVTX ranges and marks by their text or "<domain>:<text>". None for Kind::Start.
std::vector<EventRef> namedInstances(const Trace& trace, AlignmentAnchor::Kind kind, const std::string& name);

// The times at which the instances named NAME start, ascending: kernels by their timeline (short) name,
// NVTX ranges and marks by their text or "<domain>:<text>".
std::vector<TimeNs> anchorCandidates(const Trace& trace, AlignmentAnchor::Kind kind, const std::string& name);

// The time ANCHOR pins in TRACE: the trace's start, or the start of the named instance; none when the
// trace has no such instance.
std::optional<TimeNs> anchorTime(const Trace& trace, const AlignmentAnchor& anchor);

// Aligns ANCHOR_B in B onto ANCHOR_A in A, then shifts B later on A's clock by MANUAL_SHIFT (negative: earlier).
RunAlignment alignAt(TimeNs anchorA, TimeNs anchorB, TimeNs manualShift = 0);
// The same from anchors; none when either anchor is not in its trace.
std::optional<RunAlignment> alignRuns(const Trace& a, const AlignmentAnchor& anchorA, const Trace& b,
                                      const AlignmentAnchor& anchorB, TimeNs manualShift = 0);

}  // namespace gpuscope
