#include "core/query/utilization.h"

#include <algorithm>
#include <cmath>
#include <queue>
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

}  // namespace

DeviceUtilization DeviceUtilization::fromLanes(const std::vector<const Lane*>& lanes) {
  // A k-way merge by start: the heap holds each lane's next event, and a lane keeps emitting while its
  // next event starts no later than any other lane's, so each event is read once and only the union is
  // written (a busy device's union is far smaller than its events).
  struct Head {
    TimeNs start;
    uint32_t lane;
    uint32_t index;
  };
  auto later = [](const Head& a, const Head& b) { return a.start > b.start; };
  std::vector<Head> heads;
  for (uint32_t l = 0; l < lanes.size(); ++l)
    if (lanes[l] != nullptr && lanes[l]->size() > 0) heads.push_back({lanes[l]->start[0], l, 0});
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heap(later, std::move(heads));
  IntervalSet merged;
  while (!heap.empty()) {
    Head head = heap.top();
    heap.pop();
    const Lane& lane = *lanes[head.lane];
    uint32_t i = head.index;
    do {
      merged.append(lane.start[i], lane.end(i));
      ++i;
    } while (i < lane.size() && (heap.empty() || lane.start[i] <= heap.top().start));
    if (i < lane.size()) heap.push({lane.start[i], head.lane, i});
  }
  DeviceUtilization result;
  result.start_ = std::move(merged.start);
  result.end_ = std::move(merged.end);
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
