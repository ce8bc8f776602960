// LaneAccumulator must lay out any sequence of events exactly as buildLanes does (the reference: sort,
// then the stack of open lanes), whether they come in lane order or not.
#include "core/model/lane_accumulator.h"

#include <gtest/gtest.h>

#include <random>

#include "core/error.h"

namespace gpuscope {
namespace {

std::vector<Lane> reference(std::vector<RawEvent> events, bool keepStyle) { return buildLanes(events, keepStyle); }

std::vector<Lane> accumulated(const std::vector<RawEvent>& events, bool keepStyle, bool* inOrder = nullptr) {
  LaneAccumulator accumulator(keepStyle);
  for (const auto& event : events) accumulator.add(event);
  if (inOrder) *inOrder = accumulator.inLaneOrder();
  return accumulator.finish();
}

void expectSameLanes(const std::vector<Lane>& want, const std::vector<Lane>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (size_t l = 0; l < want.size(); ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    EXPECT_EQ(want[l].start, got[l].start);
    EXPECT_EQ(want[l].length, got[l].length);
    EXPECT_EQ(want[l].longEnds, got[l].longEnds);
    EXPECT_EQ(want[l].name, got[l].name);
    EXPECT_EQ(want[l].correlation, got[l].correlation);
    EXPECT_EQ(want[l].row, got[l].row);
    EXPECT_EQ(want[l].style, got[l].style);
  }
}

bool laneOrder(const RawEvent& a, const RawEvent& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; }

// Properly nested ranges in lane order, with ties (equal starts, equal ends, zero lengths), spanning many chunks.
std::vector<RawEvent> nestedInOrder(std::mt19937_64& random, size_t count) {
  std::vector<RawEvent> events;
  std::vector<TimeNs> openEnds;
  TimeNs now = 0;
  for (uint32_t row = 1; events.size() < count; ++row) {
    while (!openEnds.empty() && (openEnds.back() <= now || random() % 3 == 0)) {
      now = std::max(now, openEnds.back());
      openEnds.pop_back();
    }
    TimeNs limit = openEnds.empty() ? now + 1000 : openEnds.back();
    TimeNs end = now + static_cast<TimeNs>(random() % static_cast<uint64_t>(limit - now + 1));
    events.push_back({now, end, row % 7, row % 5 == 0 ? 0 : row, row, row * 3});
    openEnds.push_back(end);
    if (random() % 4 != 0) now += static_cast<TimeNs>(random() % 3);
  }
  std::stable_sort(events.begin(), events.end(), laneOrder);  // a zero-length child may precede a sibling
  return events;
}

TEST(LaneAccumulator, EventsInLaneOrderGoStraightIntoTheirLanes) {
  std::mt19937_64 random(7);
  auto events = nestedInOrder(random, 100'000);  // several 16,384-event chunks per lane
  bool inOrder = false;
  auto got = accumulated(events, true, &inOrder);
  EXPECT_TRUE(inOrder);
  ASSERT_GT(got.size(), 2u);
  expectSameLanes(reference(events, true), got);
}

TEST(LaneAccumulator, OutOfOrderEventsAreLaidOutAsBuildLanesDoes) {
  std::mt19937_64 random(11);
  for (size_t cut : {size_t{0}, size_t{1}, size_t{5000}, size_t{40'000}, size_t{69'999}}) {
    SCOPED_TRACE("out of order at " + std::to_string(cut));
    auto events = nestedInOrder(random, 70'000);
    // One event moved earlier breaks the order at CUT; the rest stays in order.
    std::swap(events[cut], events.back());
    bool inOrder = true;
    auto got = accumulated(events, false, &inOrder);
    EXPECT_EQ(inOrder, std::is_sorted(events.begin(), events.end(), laneOrder));
    expectSameLanes(reference(events, false), got);
  }
}

TEST(LaneAccumulator, EqualEventsKeepTheTableOrderAfterTurningRaw) {
  // Three copies of one range with different rows, then an event out of order.
  std::vector<RawEvent> events = {{10, 20, 1, 0, 1, 0}, {10, 20, 1, 0, 2, 0}, {10, 20, 1, 0, 3, 0}, {5, 6, 2, 0, 4, 0}};
  expectSameLanes(reference(events, false), accumulated(events, false));
}

TEST(LaneAccumulator, ShuffledEventsMatchTheReference) {
  std::mt19937_64 random(3);
  auto events = nestedInOrder(random, 20'000);
  std::shuffle(events.begin(), events.end(), random);
  expectSameLanes(reference(events, true), accumulated(events, true));
}

TEST(LaneAccumulator, RefusesNestingDeeperThanTheLimit) {
  LaneAccumulator accumulator(false);
  for (uint32_t depth = 0; depth < kMaxLanes; ++depth)
    accumulator.add({depth, 1'000'000 - static_cast<TimeNs>(depth), 0, 0, depth, 0});
  EXPECT_THROW(accumulator.add({kMaxLanes, kMaxLanes + 1, 0, 0, 0, 0}), TraceError);
}

TEST(LaneAccumulator, FinishLeavesItEmptyForReuse) {
  LaneAccumulator accumulator(false);
  accumulator.add({1, 2, 0, 0, 1, 0});
  EXPECT_EQ(accumulator.finish().size(), 1u);
  EXPECT_TRUE(accumulator.finish().empty());
}

}  // namespace
}  // namespace gpuscope
