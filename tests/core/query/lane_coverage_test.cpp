#include "core/query/lane_coverage.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/core/query/query_test_lanes.h"

namespace gpuscope {
namespace {

using test::addEvent;
using test::makeLane;

TEST(LaneCoverage, BusyTimeClipsEventsToTheSpan) {
  Lane lane = makeLane({{0, 10}, {20, 30}, {40, 45}});
  LaneCoverage coverage(lane);
  EXPECT_EQ(coverage.busyTime(-100, 100), 25);
  EXPECT_EQ(coverage.busyTime(5, 25), 10);
  EXPECT_EQ(coverage.busyTime(10, 20), 0);
  EXPECT_EQ(coverage.busyTime(9, 41), 12);
  EXPECT_EQ(coverage.busyTime(42, 42), 0);
  EXPECT_EQ(coverage.busyTime(43, 41), 0);
}

// Far more events than one block: every query still agrees with a plain sum over the events.
TEST(LaneCoverage, AgreesWithASumAcrossManyBlocks) {
  Lane lane;
  for (TimeNs i = 0; i < 1000; ++i) addEvent(lane, i * 100, i * 100 + 1 + (i * 37) % 90);
  LaneCoverage coverage(lane);
  auto slow = [&](TimeNs t0, TimeNs t1) {
    TimeNs busy = 0;
    for (size_t i = 0; i < lane.size(); ++i)
      busy += std::max<TimeNs>(0, std::min(lane.end(i), t1) - std::max(lane.start[i], t0));
    return busy;
  };
  for (TimeNs t0 : {-5, 0, 17, 1600, 31999, 55555})
    for (TimeNs t1 : {t0 + 1, t0 + 50, t0 + 1234, t0 + 100000}) EXPECT_EQ(coverage.busyTime(t0, t1), slow(t0, t1));
}

TEST(LaneCoverage, FractionsPerPixel) {
  // Each 100 ns pixel holds a 15 ns event: 15% covered; the last pixel is empty.
  Lane lane;
  for (TimeNs p = 0; p < 9; ++p) addEvent(lane, p * 100 + 40, p * 100 + 55);
  LaneCoverage coverage(lane);
  std::vector<float> out;
  coverage.fractions(0, 100.0, 10, out);
  ASSERT_EQ(out.size(), 10u);
  for (size_t p = 0; p < 9; ++p) EXPECT_FLOAT_EQ(out[p], 0.15f) << p;
  EXPECT_EQ(out[9], 0.0f);
  // Sub-nanosecond pixels measure the nanosecond under their centre: inside or outside an event.
  coverage.fractions(40, 0.25, 8, out);
  EXPECT_EQ(std::accumulate(out.begin(), out.end(), 0.0f), 8.0f);
}

TEST(LaneCoverage, EmptyLaneAndBadScale) {
  Lane empty;
  LaneCoverage coverage(empty);
  std::vector<float> out;
  coverage.fractions(0, 10.0, 4, out);
  EXPECT_EQ(out, std::vector<float>(4, 0.0f));
  EXPECT_EQ(coverage.busyTime(0, 100), 0);
  Lane lane = makeLane({{0, 10}});
  LaneCoverage one(lane);
  one.fractions(0, 0.0, 3, out);
  EXPECT_EQ(out, std::vector<float>(3, 0.0f));
  EXPECT_EQ(LaneCoverage().busyTime(0, 10), 0);
}

}  // namespace
}  // namespace gpuscope
