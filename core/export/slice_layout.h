#pragma once
// Laying a group of slices out for formats that nest slices by time on one row (Perfetto's tracks, a
// Chrome trace's threads): slices that overlap without one containing the other cannot share a row,
// so they are spread over as few layers as needed, each of them properly nested.
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

struct LayoutSlice {
  TimeNs start = 0;
  TimeNs end = 0;  // >= start
  EventRef ref;
};

// Splits SLICES into layers in which any two slices are disjoint or one contains the other; layer 0
// takes every slice it can. Each layer is sorted by start, the longer of two equal starts first, so a
// parent always comes before its children.
std::vector<std::vector<LayoutSlice>> nestedLayers(std::vector<LayoutSlice> slices);

}  // namespace gpuscope
