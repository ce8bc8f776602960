// Lane keeps ends as 32-bit lengths, with the rare long event's end aside: every end must come back exact.
#include <gtest/gtest.h>

#include <limits>

#include "core/model/trace.h"

namespace gpuscope {
namespace {

TEST(Lane, EveryEndComesBackExactShortOrLong) {
  constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
  constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
  const std::vector<std::pair<TimeNs, TimeNs>> events = {
      {kMin, kMin},                                         // zero length at the bottom of the range
      {kMin + 1, -1},                                       // wider than 32 bits
      {0, 0},                                               // zero length
      {1, 1 + 0xFFFFFFFELL},                                // the longest that fits in 32 bits
      {1 + 0xFFFFFFFELL, 1 + 0xFFFFFFFELL + 0xFFFFFFFFLL},  // one more: kept aside
      {10'000'000'000, 10'000'000'001},
      {20'000'000'000, 60'000'000'000},  // 40 s, an OS-runtime wait
      {60'000'000'000, kMax},            // wider than int64 allows as a difference of signed values
  };
  Lane lane;
  for (auto [s, e] : events) lane.pushInterval(s, e);
  ASSERT_EQ(lane.size(), events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(lane.start[i], events[i].first) << i;
    EXPECT_EQ(lane.end(i), events[i].second) << i;
  }
  EXPECT_EQ(lane.longEnds.size(), 4u) << "only the events of 2^32 - 1 ns or more are kept aside";
  EXPECT_EQ(lane.length.size(), events.size());
}

TEST(Lane, FirstEndAtOrAfterSearchesTheGivenRangeOnly) {
  Lane lane;
  for (TimeNs s : {0, 10, 20, 30}) lane.pushInterval(s, s + 5);  // ends 5, 15, 25, 35
  lane.pushInterval(40, 40 + 0x1'0000'0000LL);                   // a long one
  EXPECT_EQ(lane.firstEndAtOrAfter(0, 5, 15), 1u);
  EXPECT_EQ(lane.firstEndAtOrAfter(0, 5, 16), 2u);
  EXPECT_EQ(lane.firstEndAtOrAfter(0, 5, 36), 4u);
  EXPECT_EQ(lane.firstEndAtOrAfter(0, 4, 36), 4u) << "none in range: hi";
  EXPECT_EQ(lane.firstEndAtOrAfter(2, 5, 0), 2u) << "never before lo";
  EXPECT_EQ(lane.firstEndAtOrAfter(3, 3, 0), 3u);
}

}  // namespace
}  // namespace gpuscope
