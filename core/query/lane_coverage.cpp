#include "core/query/lane_coverage.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

// An event's duration; a malformed one ending before it starts covers nothing.
TimeNs durationOf(const Lane& lane, size_t i) { return std::max<TimeNs>(0, spanNs(lane.start[i], lane.end(i))); }

// The first index in [0, hi) whose event ends after T (ends are sorted), else hi.
size_t firstEndingAfter(const Lane& lane, size_t hi, TimeNs t) {
  return t == std::numeric_limits<TimeNs>::max() ? hi : lane.firstEndAtOrAfter(0, hi, t + 1);
}

}  // namespace

LaneCoverage::LaneCoverage(const Lane& lane) : lane_(&lane) {
  const size_t n = lane.size();
  blockTotal_.reserve(n / kBlock + 1);
  blockStart_.reserve(n / kBlock + 1);
  TimeNs total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % kBlock == 0) {
      blockTotal_.push_back(total);
      blockStart_.push_back(lane.start[i]);
    }
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

size_t LaneCoverage::startedBefore(TimeNs t, size_t& cursor) const {
  const Lane& lane = *lane_;
  // Blocks whose first event starts before t, galloped to from CURSOR (the count for an earlier t) in the
  // block index, which is kBlock times smaller than the lane: a sweep of increasing times stays in cache.
  const size_t blocks = blockStart_.size();
  size_t below = std::min(cursor, blocks);
  if (below > 0 && blockStart_[below - 1] >= t) below = 0;  // not an earlier t after all: search it all
  size_t above = below;
  for (size_t step = 1; above < blocks && blockStart_[above] < t; step *= 2) {
    below = above + 1;
    above = std::min(blocks, above + step);
  }
  const auto begin = blockStart_.begin();
  cursor = static_cast<size_t>(
      std::lower_bound(begin + static_cast<std::ptrdiff_t>(below), begin + static_cast<std::ptrdiff_t>(above), t) -
      begin);
  if (cursor == 0) return 0;
  // Then the events of the last such block, one by one.
  size_t i = (cursor - 1) * kBlock;
  const size_t last = std::min(lane.size(), cursor * kBlock);
  while (i < last && lane.start[i] < t) ++i;
  return i;
}

TimeNs LaneCoverage::busyBefore(TimeNs t, size_t& cursor) const {
  if (lane_ == nullptr || lane_->size() == 0) return 0;
  const Lane& lane = *lane_;
  const size_t started = startedBefore(t, cursor);
  // Of the events starting before t, those still running at t count up to t only: in a lane that never
  // overlaps, at most the last; ends are sorted, so a longer walk back is cut short by a search.
  size_t ended = started;
  while (ended > 0 && lane.end(ended - 1) > t && started - ended < kBlock) --ended;
  if (ended > 0 && lane.end(ended - 1) > t) ended = firstEndingAfter(lane, ended, t);
  TimeNs busy = durationsBefore(ended);
  for (size_t i = ended; i < started; ++i) busy = saturatingAdd(busy, std::max<TimeNs>(0, spanNs(lane.start[i], t)));
  return busy;
}

TimeNs LaneCoverage::busyTime(TimeNs t0, TimeNs t1) const {
  if (t1 <= t0) return 0;
  size_t cursor = 0;
  const TimeNs before = busyBefore(t0, cursor);
  return std::clamp<TimeNs>(saturatingSub(busyBefore(t1, cursor), before), 0, spanNs(t0, t1));
}

void LaneCoverage::fractions(TimeNs start, double nsPerPixel, size_t pixels, std::vector<float>& out,
                             size_t& cursor) const {
  out.assign(pixels, 0.0f);
  if (lane_ == nullptr || lane_->size() == 0 || pixels == 0 || !(nsPerPixel > 0.0)) return;
  auto edge = [&](size_t p) {
    return saturatingAdd(start, static_cast<TimeNs>(std::llround(static_cast<double>(p) * nsPerPixel)));
  };
  TimeNs left = edge(0);
  TimeNs busyLeft = busyBefore(left, cursor);
  for (size_t p = 0; p < pixels; ++p) {
    TimeNs right = edge(p + 1);
    if (right <= left) {
      auto centre =
          static_cast<TimeNs>(std::floor(static_cast<double>(start) + (static_cast<double>(p) + 0.5) * nsPerPixel));
      out[p] = static_cast<float>(busyTime(centre, centre + 1));
      continue;
    }
    TimeNs busyRight = busyBefore(right, cursor);
    double covered = static_cast<double>(saturatingSub(busyRight, busyLeft)) / static_cast<double>(right - left);
    out[p] = static_cast<float>(std::clamp(covered, 0.0, 1.0));
    left = right;
    busyLeft = busyRight;
  }
}

}  // namespace gpuscope
