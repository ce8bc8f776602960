#pragma once
// TimeInterval: one stretch [start, end) of a trace's clock, in nanoseconds. It is the one type for
// "from here to there" in core and ui: a GPU operation's busy time and a host call (analysis), the
// verdict's windows and gaps, the compare view's window on each run (diff), and the range picked for
// the kernel table and the Stats tab (query, stats), where an empty interval means the whole trace.
//
// It stays apart from AnalysisWindow (core/analysis/analysis_window.h), the other time type that
// remains, because that one is not a stretch but a filter with nsys's rule semantics: its sides may be
// open (no start or end option), it keeps an event only when the event lies wholly inside, its end is
// inclusive, and it turns itself into an SQL condition.
#include <algorithm>

#include "core/model/time_math.h"
#include "core/model/trace_types.h"

namespace gpuscope {

struct TimeInterval {
  TimeNs start = 0;
  TimeNs end = 0;

  // end - start, 0 for a reversed interval, and saturated where the two are further apart than int64.
  TimeNs length() const { return std::max<TimeNs>(0, saturatingSub(end, start)); }
  bool empty() const { return start >= end; }
  bool contains(TimeNs t) const { return t >= start && t < end; }
  // Whether an event over [eventStart, eventEnd) shares time with the interval; a zero-length event
  // does when it lies in it.
  bool overlaps(TimeNs eventStart, TimeNs eventEnd) const {
    return eventStart < end && (eventEnd > start || eventStart >= start);
  }
  friend bool operator==(const TimeInterval&, const TimeInterval&) = default;
};

// Whether RANGE keeps an event over [start, end): it shares time with the range, or the range is empty,
// which means the whole trace.
inline bool keptByRange(const TimeInterval& range, TimeNs start, TimeNs end) {
  return range.empty() || range.overlaps(start, end);
}

}  // namespace gpuscope
