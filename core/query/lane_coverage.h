#pragma once
// LaneCoverage: how much of any span one lane's events cover, so that a folded run of short events can be
// painted by its density (busy fraction per pixel column) instead of as a solid block.
#include <cstddef>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

// Reads the lane it was built from (which must outlive it and not change). A lane's events never overlap,
// so the busy time of a span is the sum of the events' durations clipped to it. Holds one running total and
// one start time per kBlock events (a byte per event), not per event: a query is a search of that small
// index plus at most a few kBlock reads of the lane, so painting costs follow the pixels on screen, not the
// events folded under them.
class LaneCoverage {
 public:
  static constexpr size_t kBlock = 16;

  LaneCoverage() = default;
  explicit LaneCoverage(const Lane& lane);

  // Nanoseconds of [t0, t1) covered by an event of the lane (0 when t1 <= t0).
  TimeNs busyTime(TimeNs t0, TimeNs t1) const;

  // OUT[p] = covered fraction in [0, 1] of pixel p, which spans [x(p), x(p + 1)) with
  // x(p) = start + round(p * nsPerPixel); a pixel narrower than a nanosecond is measured over the
  // nanosecond holding its centre. PIXELS + 1 queries, whatever the number of events.
  void fractions(TimeNs start, double nsPerPixel, size_t pixels, std::vector<float>& out) const {
    size_t cursor = 0;
    fractions(start, nsPerPixel, pixels, out, cursor);
  }
  // The same, for callers that ask for several spans of the lane in time order (the folds of one lane in one
  // frame): CURSOR, 0 at first, carries where the last one ended, so each starts searching from there.
  void fractions(TimeNs start, double nsPerPixel, size_t pixels, std::vector<float>& out, size_t& cursor) const;

 private:
  // Covered nanoseconds before time T. CURSOR carries where the last (earlier) T was found, from one call to
  // the next (0 to start).
  TimeNs busyBefore(TimeNs t, size_t& cursor) const;
  // How many events start before T; CURSOR as above.
  size_t startedBefore(TimeNs t, size_t& cursor) const;
  // Summed durations of events [0, I).
  TimeNs durationsBefore(size_t i) const;

  const Lane* lane_ = nullptr;
  std::vector<TimeNs> blockTotal_;  // blockTotal_[b]: summed durations of events [0, b * kBlock)
  std::vector<TimeNs> blockStart_;  // blockStart_[b]: start of event b * kBlock
};

}  // namespace gpuscope
