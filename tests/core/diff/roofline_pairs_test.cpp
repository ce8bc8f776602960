// Pairing the roofline points of two runs by kernel name: which names pair, and where the ends lie.
#include "core/diff/roofline_pairs.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

RooflinePoint point(const std::string& label, uint32_t device, std::optional<double> fp32, std::optional<double> dram,
                    int64_t durationNs) {
  RooflinePoint p;
  p.label = label;
  p.deviceId = device;
  p.instances = 1;
  p.flops[static_cast<size_t>(Precision::Fp32)] = fp32;
  p.bytes[static_cast<size_t>(MemoryLevel::Dram)] = dram;
  p.bytes[static_cast<size_t>(MemoryLevel::L2)] = dram ? std::optional<double>(*dram * 4) : std::nullopt;
  p.durationNs = durationNs;
  return p;
}

TEST(RooflineCoordinates, IntensityAndRate) {
  auto at = rooflineCoordinates(point("k", 0, 2e9, 1e9, 10'000'000), MemoryLevel::Dram);
  ASSERT_TRUE(at);
  EXPECT_DOUBLE_EQ(at->intensity, 2.0);
  EXPECT_DOUBLE_EQ(at->flopsPerSecond, 200e9);
  auto l2 = rooflineCoordinates(point("k", 0, 2e9, 1e9, 10'000'000), MemoryLevel::L2);
  ASSERT_TRUE(l2);
  EXPECT_DOUBLE_EQ(l2->intensity, 0.5);
  EXPECT_FALSE(rooflineCoordinates(point("k", 0, 2e9, 1e9, 10), MemoryLevel::L1));             // no L1 bytes
  EXPECT_FALSE(rooflineCoordinates(point("k", 0, std::nullopt, 1e9, 10), MemoryLevel::Dram));  // no FLOPs
  EXPECT_FALSE(rooflineCoordinates(point("k", 0, 2e9, 1e9, 0), MemoryLevel::Dram));            // no time
}

TEST(RooflinePairs, NamesInBothRunsWithDrawablePoints) {
  std::vector<RooflinePoint> a = {point("gemm", 0, 4e9, 1e9, 10'000'000), point("relu", 0, 1e6, 1e8, 1000),
                                  point("old", 0, 1e9, 1e9, 1000), point("copy", 0, std::nullopt, 1e9, 1000)};
  std::vector<RooflinePoint> b = {point("relu", 0, 1e6, 5e7, 500), point("copy", 0, std::nullopt, 1e9, 900),
                                  point("gemm", 0, 4e9, 5e8, 5'000'000), point("new", 0, 1e9, 1e9, 1000)};
  auto pairs = pairRooflinePoints(a, b, MemoryLevel::Dram);
  ASSERT_EQ(pairs.size(), 2u);  // "old" and "new" are in one run only; "copy" has no FLOPs in either
  EXPECT_EQ(pairs[0].label, "gemm");
  EXPECT_EQ(pairs[0].a, 0u);
  EXPECT_EQ(pairs[0].b, 2u);
  EXPECT_DOUBLE_EQ(pairs[0].from.intensity, 4.0);
  EXPECT_DOUBLE_EQ(pairs[0].from.flopsPerSecond, 400e9);
  EXPECT_DOUBLE_EQ(pairs[0].to.intensity, 8.0);
  EXPECT_DOUBLE_EQ(pairs[0].to.flopsPerSecond, 800e9);
  EXPECT_EQ(pairs[1].label, "relu");
  EXPECT_EQ(pairs[1].a, 1u);
  EXPECT_EQ(pairs[1].b, 0u);
  EXPECT_DOUBLE_EQ(pairs[1].from.intensity, 0.01);
  EXPECT_DOUBLE_EQ(pairs[1].to.intensity, 0.02);
  EXPECT_DOUBLE_EQ(pairs[1].from.flopsPerSecond, 1e12);  // 1 MFLOP in 1 us
  EXPECT_DOUBLE_EQ(pairs[1].to.flopsPerSecond, 2e12);
  // At L1 nothing has bytes: nothing pairs.
  EXPECT_TRUE(pairRooflinePoints(a, b, MemoryLevel::L1).empty());
}

TEST(RooflinePairs, DevicesMatterOnlyWhenANameIsOnSeveral) {
  // One point each: pairs across devices 0 and 1 (the same GPU can have another id in another run).
  auto single = pairRooflinePoints({point("k", 0, 1e9, 1e9, 1000)}, {point("k", 1, 2e9, 1e9, 1000)}, MemoryLevel::Dram);
  ASSERT_EQ(single.size(), 1u);
  EXPECT_DOUBLE_EQ(single[0].to.intensity, 2.0);
  // "k" on devices 0 and 1 in A, on 1 and 2 in B: only device 1 pairs.
  std::vector<RooflinePoint> a = {point("k", 0, 1e9, 1e9, 1000), point("k", 1, 3e9, 1e9, 1000)};
  std::vector<RooflinePoint> b = {point("k", 2, 5e9, 1e9, 1000), point("k", 1, 6e9, 1e9, 1000)};
  auto pairs = pairRooflinePoints(a, b, MemoryLevel::Dram);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].a, 1u);
  EXPECT_EQ(pairs[0].b, 1u);
  EXPECT_DOUBLE_EQ(pairs[0].from.intensity, 3.0);
  EXPECT_DOUBLE_EQ(pairs[0].to.intensity, 6.0);
}

}  // namespace
}  // namespace gpuscope
