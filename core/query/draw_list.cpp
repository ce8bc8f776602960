#include "core/query/draw_list.h"

#include <algorithm>
#include <cmath>

namespace gpuscope {
namespace {

// First index in [lo, hi) whose end is at least LIMIT (ends are sorted). The answer is usually a
// few events past LO, so this gallops from LO (1, 2, 4, ... ahead) and then bisects the last
// stride: O(log distance) reads near LO instead of a cold binary search over the whole lane.
size_t firstEndingAtOrAfter(const Lane& lane, size_t lo, size_t hi, TimeNs limit) {
  if (lo >= hi || lane.end(lo) >= limit) return lo;
  size_t below = lo;  // end[below] < limit
  size_t step = 1;
  size_t above = hi;  // end[above] >= limit, or hi
  while (true) {
    size_t probe = below + step;
    if (probe >= hi) break;
    if (lane.end(probe) >= limit) {
      above = probe;
      break;
    }
    below = probe;
    step *= 2;
  }
  return lane.firstEndAtOrAfter(below + 1, above, limit);
}

// The fold width in whole nanoseconds: for integer widths w, w < foldPixels * nsPerPixel exactly
// when w < ceil(foldPixels * nsPerPixel), so integer comparisons against it are exact.
TimeNs foldSpanOf(const DrawView& view) {
  constexpr double kLargest = 4.0e18;
  double span = std::ceil(view.foldPixels * view.nsPerPixel);
  if (!(span >= 1.0)) return 1;  // also catches NaN
  return span >= kLargest ? static_cast<TimeNs>(kLargest) : static_cast<TimeNs>(span);
}

}  // namespace

IndexRange visibleRange(const Lane& lane, TimeNs t0, TimeNs t1) {
  IndexRange range;
  size_t n = lane.size();
  if (n == 0 || t1 <= t0) return range;
  // Events entirely before t0: those with max(end, start + 1) <= t0. Both columns are sorted, so
  // this predicate is monotonic and a binary search finds where it stops holding.
  size_t lo = 0;
  size_t hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    TimeNs reach = std::max(lane.end(mid), lane.start[mid] + 1);
    if (reach <= t0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  range.first = lo;
  auto startBegin = lane.start.begin();
  range.last = static_cast<size_t>(
      std::lower_bound(startBegin + static_cast<std::ptrdiff_t>(lo), lane.start.end(), t1) - startBegin);
  if (range.last < range.first) range.last = range.first;
  return range;
}

void buildDrawList(const Lane& lane, const DrawView& view, std::vector<DrawItem>& out) {
  out.clear();
  IndexRange range = visibleRange(lane, view.start, view.end);
  if (range.empty()) return;
  const TimeNs foldSpan = foldSpanOf(view);
  const size_t n = lane.size();
  size_t i = range.first;
  while (i < range.last) {
    const TimeNs start = lane.start[i];
    const TimeNs end = lane.end(i);
    if (end - start >= foldSpan) {
      out.push_back({start, end, static_cast<uint32_t>(i), 1});
      ++i;
      continue;
    }
    const size_t runFirst = i;
    TimeNs runEnd = end;
    ++i;
    while (i < n && runEnd < view.end) {
      const TimeNs limit = runEnd + foldSpan;
      size_t next = firstEndingAtOrAfter(lane, i, n, limit);
      if (next > i) {
        runEnd = std::max(runEnd, lane.end(next - 1));
        i = next;
        continue;
      }
      if (lane.end(i) - lane.start[i] < foldSpan && lane.start[i] < limit) {
        runEnd = std::max(runEnd, lane.end(i));
        ++i;
        continue;
      }
      break;
    }
    const size_t count = i - runFirst;
    if (count == 1) {
      out.push_back({start, end, static_cast<uint32_t>(runFirst), 1});
    } else {
      out.push_back({start, runEnd, static_cast<uint32_t>(runFirst), static_cast<uint32_t>(count)});
    }
  }
}

}  // namespace gpuscope
