#pragma once
// Draw lists: what of one lane falls in a view, with runs of sub-pixel events folded into blocks.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

// One thing to paint: a single event, or a fold of `count` consecutive events drawn as one block.
struct DrawItem {
  TimeNs start = 0;    // start of the first event
  TimeNs end = 0;      // end of the last event (for a fold, the latest end in the run)
  uint32_t first = 0;  // index in the lane of the first event
  uint32_t count = 1;  // events held; 1 for a single event (which may still be narrow)

  bool isFold() const { return count > 1; }
  friend bool operator==(const DrawItem&, const DrawItem&) = default;
};

// The view a draw list is built for: [start, end) at nsPerPixel nanoseconds per pixel.
struct DrawView {
  TimeNs start = 0;
  TimeNs end = 0;
  double nsPerPixel = 1.0;
  double foldPixels = 3.0;  // events narrower than this are folded with their close neighbours
};

// Index range [first, last) of the events of LANE that overlap [t0, t1): an event [s, e) overlaps
// when s < t1 and e > t0; an instant (s == e) overlaps when t0 <= s < t1. Two binary searches.
struct IndexRange {
  size_t first = 0;
  size_t last = 0;
  size_t size() const { return last - first; }
  bool empty() const { return first >= last; }
};
IndexRange visibleRange(const Lane& lane, TimeNs t0, TimeNs t1);

// Replaces OUT with the draw list of LANE in VIEW, in time order.
//
// Events at least foldPixels wide are emitted one by one. A narrower event starts a fold, which
// then swallows what follows it while that stays close: every event ending less than a fold
// width (foldPixels * nsPerPixel) after the fold's end is found with one binary search on the end
// column and taken whole (such an event is necessarily narrow, since lanes never overlap); the
// next event is taken alone when it is narrow and starts less than a fold width after the fold.
// Each step either jumps over a whole run or moves the fold's end on by at least a fold width, so
// the work per lane follows the number of pixels on screen, not the number of events. A fold
// that ends up holding one event is emitted as that event. A fold stops growing once it reaches
// the end of the view.
void buildDrawList(const Lane& lane, const DrawView& view, std::vector<DrawItem>& out);

}  // namespace gpuscope
