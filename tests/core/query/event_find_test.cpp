#include "core/query/event_find.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/core/query/query_test_lanes.h"

namespace gpuscope {
namespace {

using test::addEvent;

// Strings: 0 "cudaLaunchKernel", 1 "cudaMemcpy", 2 "transposeNaive", 3 "transposeCoalesced", 4 "saxpy"
const std::vector<std::string> kStrings = {"cudaLaunchKernel", "cudaMemcpy", "transposeNaive", "transposeCoalesced",
                                           "saxpy"};

std::vector<Track> makeTracks() {
  std::vector<Track> tracks(2);
  tracks[0].kind = TrackKind::CudaApi;
  tracks[0].lanes.resize(2);
  addEvent(tracks[0].lanes[0], 0, 10, 0);
  addEvent(tracks[0].lanes[0], 20, 30, 1);
  addEvent(tracks[0].lanes[0], 40, 50, 0);
  addEvent(tracks[0].lanes[1], 41, 45, 1);
  tracks[1].kind = TrackKind::GpuKernels;
  tracks[1].lanes.resize(1);
  addEvent(tracks[1].lanes[0], 5, 15, 2);
  addEvent(tracks[1].lanes[0], 20, 25, 3);
  addEvent(tracks[1].lanes[0], 40, 60, 4);
  return tracks;
}

FindResult find(const std::string& pattern, FindMode mode, bool caseSensitive = false) {
  auto tracks = makeTracks();
  return findEvents(tracks, matchNames(kStrings, NamePattern(pattern, mode, caseSensitive)));
}

TEST(EventFind, SubstringIgnoresCaseAndOrdersByTime) {
  FindResult r = find("MEMCPY", FindMode::Substring);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (EventRef{0, 0, 1}));
  EXPECT_EQ(r[1], (EventRef{0, 1, 0}));
  EXPECT_EQ(r.startOf(0), 20);
  EXPECT_EQ(r.startOf(1), 41);
}

TEST(EventFind, CaseSensitiveSubstring) {
  EXPECT_EQ(find("MEMCPY", FindMode::Substring, true).size(), 0u);
  EXPECT_EQ(find("Memcpy", FindMode::Substring, true).size(), 2u);
}

TEST(EventFind, MatchesAcrossTracksInTimeOrderWithTiesByTrack) {
  FindResult r = find("a", FindMode::Substring);  // every name has an 'a'
  ASSERT_EQ(r.size(), 7u);
  std::vector<TimeNs> starts;
  for (size_t i = 0; i < r.size(); ++i) starts.push_back(r.startOf(i));
  EXPECT_EQ(starts, (std::vector<TimeNs>{0, 5, 20, 20, 40, 40, 41}));
  EXPECT_EQ(r[2], (EventRef{0, 0, 1}));  // same start: lower track first
  EXPECT_EQ(r[3], (EventRef{1, 0, 1}));
}

TEST(EventFind, Regex) {
  FindResult r = find("^transpose(Naive|Coalesced)$", FindMode::Regex);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (EventRef{1, 0, 0}));
  EXPECT_EQ(r[1], (EventRef{1, 0, 1}));
  EXPECT_EQ(find("^TRANSPOSE", FindMode::Regex).size(), 2u);
  EXPECT_EQ(find("^TRANSPOSE", FindMode::Regex, true).size(), 0u);
}

TEST(EventFind, InvalidRegexIsATraceError) { EXPECT_THROW(NamePattern("transpose(", FindMode::Regex), TraceError); }

TEST(EventFind, EmptyPatternMatchesNothing) {
  EXPECT_TRUE(find("", FindMode::Substring).empty());
  EXPECT_TRUE(find("", FindMode::Regex).empty());
}

TEST(EventFind, NextAndPreviousWrap) {
  FindResult r = find("cuda", FindMode::Substring);  // starts 0, 20, 40, 41
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r.next(0), 1u);
  EXPECT_EQ(r.next(3), 0u);
  EXPECT_EQ(r.previous(0), 3u);
  EXPECT_EQ(r.previous(2), 1u);
  EXPECT_EQ(r.firstAtOrAfter(20), 1u);
  EXPECT_EQ(r.firstAtOrAfter(21), 2u);
  EXPECT_EQ(r.firstAtOrAfter(42), 0u);  // wraps
  EXPECT_EQ(r.lastAtOrBefore(40), 2u);
  EXPECT_EQ(r.lastAtOrBefore(39), 1u);
  EXPECT_EQ(r.lastAtOrBefore(-1), 3u);  // wraps
  EXPECT_EQ(r.indexOf(EventRef{0, 1, 0}, 41), 3u);
  EXPECT_FALSE(r.indexOf(EventRef{1, 0, 0}, 5).has_value());
  FindResult none;
  EXPECT_FALSE(none.firstAtOrAfter(0).has_value());
  EXPECT_FALSE(none.lastAtOrBefore(0).has_value());
}

TEST(EventFind, NameIdsPastTheTableDoNotMatch) {
  std::vector<Track> tracks(1);
  tracks[0].lanes.resize(1);
  addEvent(tracks[0].lanes[0], 0, 1, 99);
  EXPECT_TRUE(findEvents(tracks, std::vector<bool>(5, true)).empty());
}

}  // namespace
}  // namespace gpuscope
