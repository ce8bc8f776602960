#include "core/query/draw_list.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/core/query/query_test_lanes.h"

namespace gpuscope {
namespace {

using test::addEvent;
using test::makeLane;

std::vector<DrawItem> drawList(const Lane& lane, TimeNs t0, TimeNs t1, double nsPerPixel, double foldPixels = 3.0) {
  std::vector<DrawItem> out;
  buildDrawList(lane, DrawView{t0, t1, nsPerPixel, foldPixels}, out);
  return out;
}

TEST(VisibleRange, EventsTouchingTheViewEdgesAreOutside) {
  Lane lane = makeLane({{0, 10}, {10, 20}, {20, 30}});
  IndexRange r = visibleRange(lane, 10, 20);
  EXPECT_EQ(r.first, 1u);
  EXPECT_EQ(r.last, 2u);
  r = visibleRange(lane, 9, 21);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.last, 3u);
  r = visibleRange(lane, 29, 30);
  EXPECT_EQ(r.first, 2u);
  EXPECT_EQ(r.last, 3u);
  EXPECT_TRUE(visibleRange(lane, 30, 40).empty());
  EXPECT_TRUE(visibleRange(lane, -10, 0).empty());
  EXPECT_TRUE(visibleRange(lane, 15, 15).empty());
  EXPECT_TRUE(visibleRange(Lane{}, 0, 100).empty());
}

TEST(VisibleRange, InstantsAreVisibleFromTheirTimeOnly) {
  Lane lane = makeLane({{5, 5}, {10, 10}, {12, 20}});
  IndexRange r = visibleRange(lane, 5, 10);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.last, 1u);
  EXPECT_TRUE(visibleRange(lane, 0, 5).empty());
  r = visibleRange(lane, 6, 11);
  EXPECT_EQ(r.first, 1u);
  EXPECT_EQ(r.last, 2u);
}

TEST(VisibleRange, LongEventSpanningTheWholeView) {
  Lane lane = makeLane({{0, 5}, {6, 1000}, {1000, 1001}});
  IndexRange r = visibleRange(lane, 100, 200);
  EXPECT_EQ(r.first, 1u);
  EXPECT_EQ(r.last, 2u);
}

TEST(DrawList, WideEventsAreDrawnOneByOne) {
  Lane lane = makeLane({{0, 3}, {3, 6}, {10, 20}});
  auto items = drawList(lane, 0, 100, 1.0);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0], (DrawItem{0, 3, 0, 1}));
  EXPECT_EQ(items[1], (DrawItem{3, 6, 1, 1}));
  EXPECT_EQ(items[2], (DrawItem{10, 20, 2, 1}));
}

TEST(DrawList, AdjacentNarrowEventsFoldIntoOneBlock) {
  Lane lane = makeLane({{0, 2}, {2, 4}, {4, 6}, {6, 8}});
  auto items = drawList(lane, 0, 100, 1.0);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0], (DrawItem{0, 8, 0, 4}));
  EXPECT_TRUE(items[0].isFold());
}

TEST(DrawList, WidthExactlyAFoldWidthIsNotFolded) {
  // nsPerPixel 10, fold 3 px: the fold width is 30 ns.
  Lane lane = makeLane({{0, 30}, {30, 59}, {59, 88}});
  auto items = drawList(lane, 0, 1000, 10.0);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (DrawItem{0, 30, 0, 1}));
  EXPECT_EQ(items[1], (DrawItem{30, 88, 1, 2}));
}

TEST(DrawList, GapOfAFoldWidthEndsTheFold) {
  // Fold width 30 ns. The second event starts 29 ns after the first ends: joined. The third starts
  // exactly 30 ns after the second ends: a fold of its own (here a single event).
  Lane lane = makeLane({{0, 5}, {34, 40}, {70, 75}});
  auto items = drawList(lane, 0, 1000, 10.0);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (DrawItem{0, 40, 0, 2}));
  EXPECT_EQ(items[1], (DrawItem{70, 75, 2, 1}));
  EXPECT_FALSE(items[1].isFold());
}

TEST(DrawList, EventEndingInsideTheFoldWindowIsSwallowedWhateverItsStart) {
  // The second event starts 29 ns after the fold's end and ends 31 ns after it: it is narrow and
  // close, so it joins. The fold then reaches 36; the wide event after it does not join.
  Lane lane = makeLane({{0, 5}, {34, 36}, {40, 100}});
  auto items = drawList(lane, 0, 1000, 10.0);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (DrawItem{0, 36, 0, 2}));
  EXPECT_EQ(items[1], (DrawItem{40, 100, 2, 1}));
}

TEST(DrawList, FractionalFoldWidthRoundsUp) {
  // 0.5 ns per pixel * 3 px = 1.5 ns: a 1 ns event is narrow, a 2 ns one is not.
  Lane lane = makeLane({{0, 1}, {1, 2}, {2, 4}});
  auto items = drawList(lane, 0, 10, 0.5);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (DrawItem{0, 2, 0, 2}));
  EXPECT_EQ(items[1], (DrawItem{2, 4, 2, 1}));
}

TEST(DrawList, MixedNarrowWideNarrow) {
  Lane lane = makeLane({{0, 1}, {1, 2}, {2, 50}, {50, 51}, {200, 201}});
  auto items = drawList(lane, 0, 1000, 1.0);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0], (DrawItem{0, 2, 0, 2}));
  EXPECT_EQ(items[1], (DrawItem{2, 50, 2, 1}));
  EXPECT_EQ(items[2], (DrawItem{50, 51, 3, 1}));
  EXPECT_EQ(items[3], (DrawItem{200, 201, 4, 1}));
}

TEST(DrawList, OnlyVisibleEventsAreListed) {
  Lane lane = makeLane({{0, 10}, {10, 20}, {20, 30}, {30, 40}});
  auto items = drawList(lane, 15, 25, 0.1);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].first, 1u);
  EXPECT_EQ(items[1].first, 2u);
}

TEST(DrawList, FoldStopsGrowingAtTheViewEnd) {
  Lane lane;
  for (TimeNs t = 0; t < 100000; ++t) addEvent(lane, t, t + 1);
  auto items = drawList(lane, 0, 100, 1.0);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].isFold());
  EXPECT_GE(items[0].end, 100);
  EXPECT_LT(items[0].end, 110);
  EXPECT_EQ(items[0].count, static_cast<uint32_t>(items[0].end));
}

TEST(DrawList, ZoomedOutMillionEventsGiveFewItems) {
  // A million 1 ns events 10 ns apart, seen at 10,000 ns per pixel: one fold holding them all.
  Lane lane;
  for (TimeNs i = 0; i < 1000000; ++i) addEvent(lane, i * 10, i * 10 + 1);
  auto items = drawList(lane, 0, 10000000, 10000.0);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 1000000u);
  EXPECT_EQ(items[0].start, 0);
  EXPECT_EQ(items[0].end, 9999991);
}

TEST(DrawList, ClustersSeparatedByWideGapsStayApart) {
  // Two bursts of tiny events with a 100 px gap between them, 1 ns per pixel.
  Lane lane;
  for (TimeNs t = 0; t < 50; t += 2) addEvent(lane, t, t + 1);
  for (TimeNs t = 150; t < 200; t += 2) addEvent(lane, t, t + 1);
  auto items = drawList(lane, 0, 300, 1.0);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (DrawItem{0, 49, 0, 25}));
  EXPECT_EQ(items[1], (DrawItem{150, 199, 25, 25}));
}

// The rule the binary-search version implements, one event at a time.
std::vector<DrawItem> referenceDrawList(const Lane& lane, TimeNs foldSpan) {
  std::vector<DrawItem> out;
  size_t i = 0;
  while (i < lane.size()) {
    if (lane.end(i) - lane.start[i] >= foldSpan) {
      out.push_back({lane.start[i], lane.end(i), static_cast<uint32_t>(i), 1});
      ++i;
      continue;
    }
    size_t first = i;
    TimeNs runEnd = lane.end(i);
    ++i;
    while (i < lane.size()) {
      bool endsClose = lane.end(i) < runEnd + foldSpan;
      bool narrowAndClose = lane.end(i) - lane.start[i] < foldSpan && lane.start[i] < runEnd + foldSpan;
      if (!endsClose && !narrowAndClose) break;
      runEnd = std::max(runEnd, lane.end(i));
      ++i;
    }
    out.push_back({lane.start[first], first + 1 == i ? lane.end(first) : runEnd, static_cast<uint32_t>(first),
                   static_cast<uint32_t>(i - first)});
  }
  return out;
}

TEST(DrawList, MatchesTheOneByOneRuleOnRandomLanes) {
  std::mt19937_64 rng(1234);
  for (int round = 0; round < 200; ++round) {
    Lane lane;
    TimeNs t = static_cast<TimeNs>(rng() % 50);
    int n = 1 + static_cast<int>(rng() % 400);
    for (int k = 0; k < n; ++k) {
      TimeNs gap = (rng() % 4 == 0) ? static_cast<TimeNs>(rng() % 200) : static_cast<TimeNs>(rng() % 5);
      TimeNs width = (rng() % 5 == 0) ? static_cast<TimeNs>(rng() % 300) : static_cast<TimeNs>(rng() % 6);
      t += gap;
      addEvent(lane, t, t + width);
      t += width;
    }
    double nsPerPixel = 0.25 + static_cast<double>(rng() % 1000) / 100.0;
    TimeNs foldSpan = static_cast<TimeNs>(std::ceil(3.0 * nsPerPixel));
    auto expected = referenceDrawList(lane, foldSpan);
    auto items = drawList(lane, -1, t + 1, nsPerPixel);
    ASSERT_EQ(items, expected) << "round " << round;
    size_t covered = 0;
    for (const DrawItem& item : items) {
      EXPECT_EQ(item.first, covered);
      covered += item.count;
    }
    EXPECT_EQ(covered, lane.size());
  }
}

TEST(DrawList, WorkFollowsPixelsNotEvents) {
  // Ten million events are not visited when the view shows them as one block: this would take
  // seconds if the fold walked event by event.
  Lane lane;
  const TimeNs n = 10000000;
  lane.reserveIntervals(n);
  for (TimeNs i = 0; i < n; ++i) lane.pushInterval(i * 4, i * 4 + 3);
  std::vector<DrawItem> out;
  for (int frame = 0; frame < 200; ++frame) {
    buildDrawList(lane, DrawView{0, n * 4, static_cast<double>(n * 4) / 1920.0, 3.0}, out);
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].count, static_cast<uint32_t>(n));
  }
}

}  // namespace
}  // namespace gpuscope
