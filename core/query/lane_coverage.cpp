#include "core/query/lane_coverage.h"

#include <algorithm>
#include <cmath>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

// An event's duration; a malformed one ending before it starts covers nothing.
TimeNs durationOf(const Lane& lane, size_t i) { return std::max<TimeNs>(0, spanNs(lane.start[i], lane.end[i])); }

}  // namespace

LaneCoverage::LaneCoverage(const Lane& lane) : lane_(&lane) {
  const size_t n = lane.size();
  blockTotal_.reserve(n / kBlock + 1);
  TimeNs total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % kBlock == 0) blockTotal_.push_back(total);
    total = saturatingAdd(total, durationOf(lane, i));
  }
  if (n % kBlock == 0) blockTotal_.push_back(total);
}

TimeNs LaneCoverage::durationsBefore(size_t i) const {
  const size_t block = i / kBlock;
  TimeNs total = blockTotal_[block];
  for (size_t j = block * kBlock; j < i; ++j) total = saturatingAdd(total, durationOf(*lane_, j));
  return total;
}

TimeNs LaneCoverage::busyBefore(TimeNs t) const {
  if (lane_ == nullptr || lane_->size() == 0) return 0;
  const Lane& lane = *lane_;
  // Events starting before t; of those, the ones still running at t (ends are sorted too) count up to t only.
  const auto started =
      static_cast<size_t>(std::lower_bound(lane.start.begin(), lane.start.end(), t) - lane.start.begin());
  const auto ended =
      static_cast<size_t>(std::upper_bound(lane.end.begin(), lane.end.begin() + started, t) - lane.end.begin());
  TimeNs busy = durationsBefore(ended);
  for (size_t i = ended; i < started; ++i) busy = saturatingAdd(busy, std::max<TimeNs>(0, spanNs(lane.start[i], t)));
  return busy;
}

TimeNs LaneCoverage::busyTime(TimeNs t0, TimeNs t1) const {
  if (t1 <= t0) return 0;
  return std::clamp<TimeNs>(saturatingSub(busyBefore(t1), busyBefore(t0)), 0, spanNs(t0, t1));
}

void LaneCoverage::fractions(TimeNs start, double nsPerPixel, size_t pixels, std::vector<float>& out) const {
  out.assign(pixels, 0.0f);
  if (lane_ == nullptr || lane_->size() == 0 || pixels == 0 || !(nsPerPixel > 0.0)) return;
  auto edge = [&](size_t p) {
    return saturatingAdd(start, static_cast<TimeNs>(std::llround(static_cast<double>(p) * nsPerPixel)));
  };
  TimeNs left = edge(0);
  TimeNs busyLeft = busyBefore(left);
  for (size_t p = 0; p < pixels; ++p) {
    TimeNs right = edge(p + 1);
    if (right <= left) {
      auto centre =
          static_cast<TimeNs>(std::floor(static_cast<double>(start) + (static_cast<double>(p) + 0.5) * nsPerPixel));
      out[p] = static_cast<float>(busyTime(centre, centre + 1));
      continue;
    }
    TimeNs busyRight = busyBefore(right);
    double covered = static_cast<double>(saturatingSub(busyRight, busyLeft)) / static_cast<double>(right - left);
    out[p] = static_cast<float>(std::clamp(covered, 0.0, 1.0));
    left = right;
    busyLeft = busyRight;
  }
}

}  // namespace gpuscope
