#include "core/query/utilization.h"

#include <gtest/gtest.h>

#include "tests/core/query/query_test_lanes.h"

namespace gpuscope {
namespace {

using test::makeLane;

TEST(DeviceUtilization, OverlappingStreamsAreCountedOnce) {
  Lane a = makeLane({{0, 10}, {20, 30}});
  Lane b = makeLane({{5, 25}});
  auto util = DeviceUtilization::fromLanes({&a, &b});
  ASSERT_EQ(util.intervalStart().size(), 1u);
  EXPECT_EQ(util.intervalStart()[0], 0);
  EXPECT_EQ(util.intervalEnd()[0], 30);
  EXPECT_EQ(util.totalBusy(), 30);
  EXPECT_EQ(util.busyTime(0, 30), 30);
  EXPECT_EQ(util.busyTime(10, 20), 10);
  EXPECT_EQ(util.busyTime(-100, 1000), 30);
}

TEST(DeviceUtilization, GapsAndPartialIntervals) {
  Lane a = makeLane({{0, 10}});
  Lane b = makeLane({{20, 30}, {40, 45}});
  auto util = DeviceUtilization::fromLanes({&a, &b});
  EXPECT_EQ(util.totalBusy(), 25);
  EXPECT_EQ(util.busyTime(5, 25), 10);
  EXPECT_EQ(util.busyTime(10, 20), 0);
  EXPECT_EQ(util.busyTime(9, 21), 2);
  EXPECT_EQ(util.busyTime(42, 42), 0);
  EXPECT_EQ(util.busyTime(43, 41), 0);
}

TEST(DeviceUtilization, TouchingAndEmptyEventsMerge) {
  Lane a = makeLane({{0, 10}, {15, 15}, {30, 40}});
  Lane b = makeLane({{10, 20}});
  Lane empty;
  auto util = DeviceUtilization::fromLanes({&a, &empty, &b, nullptr});
  ASSERT_EQ(util.intervalStart().size(), 2u);
  EXPECT_EQ(util.intervalEnd()[0], 20);
  EXPECT_EQ(util.intervalStart()[1], 30);
}

TEST(DeviceUtilization, FractionsPerPixel) {
  Lane a = makeLane({{0, 10}, {25, 30}});
  Lane b = makeLane({{20, 24}});
  auto util = DeviceUtilization::fromLanes({&a, &b});
  std::vector<float> f;
  util.fractions(0, 10.0, 4, f);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_FLOAT_EQ(f[0], 1.0f);
  EXPECT_FLOAT_EQ(f[1], 0.0f);
  EXPECT_FLOAT_EQ(f[2], 0.9f);
  EXPECT_FLOAT_EQ(f[3], 0.0f);
}

TEST(DeviceUtilization, FractionalPixelEdgesRound) {
  Lane a = makeLane({{0, 5}});
  auto util = DeviceUtilization::fromLanes({&a});
  std::vector<float> f;
  // Edges at 0, 3 (2.5 rounds up), 5, 8 (7.5 rounds up).
  util.fractions(0, 2.5, 3, f);
  EXPECT_FLOAT_EQ(f[0], 1.0f);
  EXPECT_FLOAT_EQ(f[1], 1.0f);
  EXPECT_FLOAT_EQ(f[2], 0.0f);
}

TEST(DeviceUtilization, SubNanosecondPixels) {
  Lane a = makeLane({{10, 11}});
  auto util = DeviceUtilization::fromLanes({&a});
  std::vector<float> f;
  util.fractions(9, 0.25, 12, f);  // pixels 0-3 lie in ns 9, 4-7 in ns 10, 8-11 in ns 11
  for (size_t p = 0; p < 12; ++p) {
    float expected = (p >= 4 && p < 8) ? 1.0f : 0.0f;
    EXPECT_FLOAT_EQ(f[p], expected) << "pixel " << p;
  }
}

TEST(DeviceUtilization, ManyLanesMergePairwise) {
  std::vector<Lane> lanes(37);
  for (size_t k = 0; k < lanes.size(); ++k) {
    TimeNs s = static_cast<TimeNs>(k) * 100;
    lanes[k] = makeLane({{s, s + 50}, {s + 60, s + 70}});
  }
  std::vector<const Lane*> pointers;
  for (const Lane& lane : lanes) pointers.push_back(&lane);
  auto util = DeviceUtilization::fromLanes(pointers);
  EXPECT_EQ(util.totalBusy(), 37 * 60);
  EXPECT_EQ(util.intervalStart().size(), 74u);
  EXPECT_EQ(util.busyTime(3600, 3700), 60);
}

TEST(DeviceUtilization, NothingGivesZeros) {
  DeviceUtilization util = DeviceUtilization::fromLanes({});
  std::vector<float> f;
  util.fractions(0, 1.0, 5, f);
  EXPECT_EQ(f, std::vector<float>(5, 0.0f));
  EXPECT_EQ(util.busyTime(0, 100), 0);
}

}  // namespace
}  // namespace gpuscope
