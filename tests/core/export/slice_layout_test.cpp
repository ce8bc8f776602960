// nestedLayers: slices spread over layers in which every two are disjoint or nested.
#include "core/export/slice_layout.h"

#include <gtest/gtest.h>

#include <random>

namespace gpuscope {
namespace {

LayoutSlice slice(TimeNs start, TimeNs end, uint32_t id) { return {start, end, {0, 0, id}}; }

// Whether every two slices of LAYER are disjoint or nested, and the layer is in start order.
bool properlyNested(const std::vector<LayoutSlice>& layer) {
  for (size_t i = 0; i < layer.size(); ++i) {
    if (i && layer[i].start < layer[i - 1].start) return false;
    for (size_t j = i + 1; j < layer.size(); ++j) {
      const auto &a = layer[i], &b = layer[j];
      bool disjoint = a.end <= b.start || b.end <= a.start;
      bool nested = (a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end);
      if (!disjoint && !nested) return false;
    }
  }
  return true;
}

TEST(SliceLayout, NestedSlicesShareOneLayerParentFirst) {
  auto layers = nestedLayers({slice(10, 20, 2), slice(0, 100, 1), slice(10, 50, 3), slice(50, 50, 4)});
  ASSERT_EQ(layers.size(), 1u);
  std::vector<uint32_t> order;
  for (const auto& s : layers[0]) order.push_back(s.ref.index);
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 3, 2, 4}));
}

TEST(SliceLayout, OverlapWithoutNestingGoesToASecondLayer) {
  auto layers = nestedLayers({slice(100, 400, 1), slice(300, 600, 2), slice(120, 200, 3), slice(700, 800, 4)});
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].size(), 3u);
  ASSERT_EQ(layers[1].size(), 1u);
  EXPECT_EQ(layers[1][0].ref.index, 2u);
}

TEST(SliceLayout, RandomSlicesAreAllPlacedAndEveryLayerNests) {
  std::mt19937 random(7);
  std::vector<LayoutSlice> slices;
  for (uint32_t i = 0; i < 400; ++i) {
    TimeNs start = random() % 1000, length = random() % 200;
    slices.push_back(slice(start, start + length, i));
  }
  auto layers = nestedLayers(slices);
  size_t placed = 0;
  for (const auto& layer : layers) {
    EXPECT_TRUE(properlyNested(layer));
    placed += layer.size();
  }
  EXPECT_EQ(placed, slices.size());
  EXPECT_GT(layers.size(), 1u);
}

}  // namespace
}  // namespace gpuscope
