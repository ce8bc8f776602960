#include "core/export/slice_layout.h"

#include <algorithm>

namespace gpuscope {

std::vector<std::vector<LayoutSlice>> nestedLayers(std::vector<LayoutSlice> slices) {
  std::sort(slices.begin(), slices.end(), [](const LayoutSlice& a, const LayoutSlice& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<std::vector<LayoutSlice>> layers;
  std::vector<std::vector<TimeNs>> openEnds;  // per layer: ends of the slices still open, innermost last
  for (const auto& slice : slices) {
    size_t layer = 0;
    for (; layer < layers.size(); ++layer) {
      auto& open = openEnds[layer];
      while (!open.empty() && open.back() <= slice.start) open.pop_back();
      if (open.empty() || open.back() >= slice.end) break;
    }
    if (layer == layers.size()) {
      layers.emplace_back();
      openEnds.emplace_back();
    }
    layers[layer].push_back(slice);
    openEnds[layer].push_back(slice.end);
  }
  return layers;
}

}  // namespace gpuscope
