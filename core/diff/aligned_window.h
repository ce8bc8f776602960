#pragma once
// AlignedWindow: the stretch of each run that an alignment pins together (an NVTX range, or one iteration
// between two instances of a kernel), so that the compare view can open on it and
// summarise it instead of the whole runs, whose idle start-up and tear-down hide the difference.
#include <string>
#include <utility>

#include "core/diff/run_alignment.h"
#include "core/diff/run_diff.h"

namespace gpuscope {

struct AlignedWindow {
  std::string label;  // what pins it, e.g. "NVTX 'epoch 1'", "kernel 'gemm' #3 to the next", "whole runs"
  TimeInterval a;     // on A's clock
  TimeInterval b;     // on B's clock
  // The range of A's clock that shows both windows when B is aligned at the window's start: [a.start,
  // a.start + the longer of the two spans).
  TimeInterval viewOfA() const;
};

// The window ANCHOR_A and ANCHOR_B pin:
// - an NVTX range: the anchored instance in each run, start to end;
// - a kernel: from the anchored instance to the start of the next instance of that kernel (one iteration),
//   or to the end of the run's GPU work when it is the last;
// - the runs' starts: the whole runs.
// None when an anchor is not in its run.
std::optional<AlignedWindow> alignedWindow(const Trace& a, const AlignmentAnchor& anchorA, const Trace& b,
                                           const AlignmentAnchor& anchorB);

// The anchors a comparison opens on when none is asked for: the last outermost NVTX range of A in which
// kernels start and whose text B has too (training loops wrap epochs or steps in ranges; the last is past
// the warm-up), the same
// instance in both where both have as many, else the last instance B has; failing that, A's first kernel
// whose name B has, first in both; failing that, the runs' starts.
std::pair<AlignmentAnchor, AlignmentAnchor> defaultAnchors(const Trace& a, const Trace& b);

}  // namespace gpuscope
