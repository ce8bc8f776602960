#include "core/model/interval_set.h"

#include <algorithm>

namespace gpuscope {

IntervalSet::IntervalSet(std::vector<TimeInterval> intervals) {
  std::erase_if(intervals, [](const TimeInterval& i) { return i.end <= i.start; });
  std::sort(intervals.begin(), intervals.end(),
            [](const TimeInterval& a, const TimeInterval& b) { return a.start < b.start; });
  for (const TimeInterval& interval : intervals) {
    if (!intervals_.empty() && interval.start <= intervals_.back().end) {
      intervals_.back().end = std::max(intervals_.back().end, interval.end);
    } else {
      intervals_.push_back(interval);
    }
  }
}

TimeNs IntervalSet::length() const {
  TimeNs total = 0;
  for (const TimeInterval& interval : intervals_) total += interval.length();
  return total;
}

size_t IntervalSet::firstEndingAfter(TimeNs time) const {
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), time,
                             [](TimeNs t, const TimeInterval& interval) { return t < interval.end; });
  return static_cast<size_t>(it - intervals_.begin());
}

TimeNs IntervalSet::lengthWithin(TimeNs from, TimeNs to) const {
  TimeNs total = 0;
  for (size_t i = firstEndingAfter(from); i < intervals_.size() && intervals_[i].start < to; ++i) {
    total += std::min(intervals_[i].end, to) - std::max(intervals_[i].start, from);
  }
  return total;
}

std::vector<TimeInterval> IntervalSet::gapsWithin(TimeNs from, TimeNs to) const {
  std::vector<TimeInterval> gaps;
  TimeNs cursor = from;
  for (size_t i = firstEndingAfter(from); i < intervals_.size() && intervals_[i].start < to; ++i) {
    if (intervals_[i].start > cursor) gaps.push_back({cursor, intervals_[i].start});
    cursor = std::max(cursor, intervals_[i].end);
  }
  if (cursor < to) gaps.push_back({cursor, to});
  return gaps;
}

}  // namespace gpuscope
