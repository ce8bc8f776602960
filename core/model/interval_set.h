#pragma once
// IntervalSet: disjoint, sorted [start, end) time intervals, for the verdict's "how much of this window
// was the GPU busy / the host in a CUDA call" questions. Overlapping input merges, so work that runs on
// two streams at once counts once.
#include <vector>

#include "core/model/time_interval.h"

namespace gpuscope {

class IntervalSet {
 public:
  IntervalSet() = default;
  // Sorts and merges INTERVALS; empty and reversed intervals are dropped.
  explicit IntervalSet(std::vector<TimeInterval> intervals);

  const std::vector<TimeInterval>& intervals() const { return intervals_; }
  bool empty() const { return intervals_.empty(); }
  // Total covered nanoseconds.
  TimeNs length() const;
  // Covered nanoseconds inside [from, to).
  TimeNs lengthWithin(TimeNs from, TimeNs to) const;
  // The parts of [from, to) this set does not cover, in order.
  std::vector<TimeInterval> gapsWithin(TimeNs from, TimeNs to) const;

 private:
  std::vector<TimeInterval> intervals_;  // sorted, disjoint, non-empty
  // Index of the first interval whose end is after TIME.
  size_t firstEndingAfter(TimeNs time) const;
};

}  // namespace gpuscope
