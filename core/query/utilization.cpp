#include "core/query/utilization.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

// Sorted, disjoint, non-touching, non-empty intervals.
struct IntervalSet {
  std::vector<TimeNs> start;
  std::vector<TimeNs> end;

  // Adds [s, e) after everything already held (s is at least the last start).
  void append(TimeNs s, TimeNs e) {
    if (e <= s) return;
    if (!end.empty() && s <= end.back()) {
      end.back() = std::max(end.back(), e);
      return;
    }
    start.push_back(s);
    end.push_back(e);
  }
};

IntervalSet fromLane(const Lane& lane) {
  IntervalSet set;
  set.start.reserve(lane.size());
  set.end.reserve(lane.size());
  for (size_t i = 0; i < lane.size(); ++i) set.append(lane.start[i], lane.end(i));
  return set;
}

IntervalSet unite(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet out;
  out.start.reserve(a.start.size() + b.start.size());
  out.end.reserve(a.start.size() + b.start.size());
  size_t i = 0;
  size_t j = 0;
  while (i < a.start.size() || j < b.start.size()) {
    bool takeA = j == b.start.size() || (i < a.start.size() && a.start[i] <= b.start[j]);
    if (takeA) {
      out.append(a.start[i], a.end[i]);
      ++i;
    } else {
      out.append(b.start[j], b.end[j]);
      ++j;
    }
  }
  return out;
}

}  // namespace

DeviceUtilization DeviceUtilization::fromLanes(const std::vector<const Lane*>& lanes) {
  std::vector<IntervalSet> sets;
  sets.reserve(lanes.size());
  for (const Lane* lane : lanes) {
    if (lane != nullptr && lane->size() > 0) sets.push_back(fromLane(*lane));
  }
  // Pairwise rounds: every event is copied once per round, and there are log2(k) rounds.
  while (sets.size() > 1) {
    std::vector<IntervalSet> next;
    next.reserve((sets.size() + 1) / 2);
    for (size_t i = 0; i + 1 < sets.size(); i += 2) next.push_back(unite(sets[i], sets[i + 1]));
    if (sets.size() % 2 == 1) next.push_back(std::move(sets.back()));
    sets = std::move(next);
  }
  DeviceUtilization result;
  if (!sets.empty()) {
    result.start_ = std::move(sets.front().start);
    result.end_ = std::move(sets.front().end);
  }
  result.busyBefore_.resize(result.start_.size() + 1);
  result.busyBefore_[0] = 0;
  for (size_t i = 0; i < result.start_.size(); ++i) {
    result.busyBefore_[i + 1] = saturatingAdd(result.busyBefore_[i], spanNs(result.start_[i], result.end_[i]));
  }
  return result;
}

DeviceUtilization DeviceUtilization::forDevice(const Trace& trace, uint32_t deviceId) {
  std::vector<const Lane*> lanes;
  for (const Track& track : trace.tracks()) {
    if (!track.isGpu() || track.deviceId != deviceId) continue;
    for (const Lane& lane : track.lanes) lanes.push_back(&lane);
  }
  return fromLanes(lanes);
}

TimeNs DeviceUtilization::busyBefore(TimeNs t) const {
  // Intervals starting before t: all of those before the last are wholly before t.
  auto it = std::lower_bound(start_.begin(), start_.end(), t);
  size_t k = static_cast<size_t>(it - start_.begin());
  if (k == 0) return 0;
  TimeNs busy = busyBefore_[k - 1];
  return busy + (std::min(end_[k - 1], t) - start_[k - 1]);
}

TimeNs DeviceUtilization::busyTime(TimeNs t0, TimeNs t1) const {
  if (t1 <= t0) return 0;
  return busyBefore(t1) - busyBefore(t0);
}

void DeviceUtilization::fractions(TimeNs start, double nsPerPixel, size_t pixels, std::vector<float>& out) const {
  out.assign(pixels, 0.0f);
  if (start_.empty() || pixels == 0 || !(nsPerPixel > 0.0)) return;
  auto edge = [&](size_t p) { return start + static_cast<TimeNs>(std::llround(static_cast<double>(p) * nsPerPixel)); };
  TimeNs left = edge(0);
  TimeNs busyLeft = busyBefore(left);
  for (size_t p = 0; p < pixels; ++p) {
    TimeNs right = edge(p + 1);
    if (right <= left) {
      // A pixel narrower than a nanosecond: measure the nanosecond holding its centre.
      auto centre =
          static_cast<TimeNs>(std::floor(static_cast<double>(start) + (static_cast<double>(p) + 0.5) * nsPerPixel));
      out[p] = static_cast<float>(busyTime(centre, centre + 1));
      continue;
    }
    TimeNs busyRight = busyBefore(right);
    out[p] = static_cast<float>(static_cast<double>(busyRight - busyLeft) / static_cast<double>(right - left));
    left = right;
    busyLeft = busyRight;
  }
}

}  // namespace gpuscope
