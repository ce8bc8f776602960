// The statistics behind every summary report, on hand-made values.
#include "core/stats/summary_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpuscope {
namespace {

TEST(SummaryStats, MedianOfOddCountIsTheMiddleValue) {
  std::vector<int64_t> sorted = {1, 3, 10};
  EXPECT_EQ(medianOfSorted(sorted), 3.0);
}

TEST(SummaryStats, MedianOfEvenCountIsTheMeanOfTheTwoMiddleValues) {
  std::vector<int64_t> sorted = {1, 3, 4, 100};
  EXPECT_EQ(medianOfSorted(sorted), 3.5);
}

TEST(SummaryStats, SampleStdDevOfOneValueIsZero) {
  std::vector<int64_t> one = {42};
  EXPECT_EQ(sampleStdDev(one), 0.0);
}

TEST(SummaryStats, SampleStdDevDividesByCountMinusOne) {
  // Squared deviations from the mean 5 sum to 32; 32 / (8 - 1).
  std::vector<int64_t> values = {2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_DOUBLE_EQ(sampleStdDev(values), std::sqrt(32.0 / 7.0));
}

TEST(SummaryStats, SampleStdDevStaysExactForLargeCloseValues) {
  // A naive sum-of-squares formula loses these to cancellation.
  std::vector<int64_t> values = {1'000'000'000'001, 1'000'000'000'003};
  EXPECT_DOUBLE_EQ(sampleStdDev(values), std::sqrt(2.0));
}

TEST(SummaryStats, SummarizeSortsItsInput) {
  auto s = summarize({30, 10, 20, 40});
  EXPECT_EQ(s.count, 4);
  EXPECT_EQ(s.total, 100);
  EXPECT_EQ(s.min, 10);
  EXPECT_EQ(s.max, 40);
  EXPECT_EQ(s.mean, 25.0);
  EXPECT_EQ(s.median, 25.0);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(500.0 / 3.0));
}

TEST(SummaryStats, SummarizeOfNothingIsAllZero) {
  auto s = summarize({});
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.total, 0);
  EXPECT_EQ(s.stddev, 0.0);
}

TEST(SummaryStats, TotalSaturatesInsteadOfOverflowing) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto s = summarize({kMax, kMax});
  EXPECT_EQ(s.total, kMax);
  EXPECT_EQ(s.median, static_cast<double>(kMax));
}

TEST(SqlRound, ExactTiesGoAwayFromZero) {
  // 2.25 and 1213464.25 are exact in binary; nsys printed 1213464.3 for the latter (loader2 cuLibraryUnload).
  EXPECT_EQ(sqlRound(2.25, 1), 2.3);
  EXPECT_EQ(sqlRound(-2.25, 1), -2.3);
  EXPECT_EQ(sqlRound(1213464.25, 1), 1213464.3);
  EXPECT_EQ(sqlRound(0.5, 0), 1.0);
}

TEST(SqlRound, DecidesOnTheExactBinaryValue) {
  // 0.15 is stored as 0.1499999999999999944..., 2.35 as 2.3500000000000000888...
  EXPECT_EQ(sqlRound(0.15, 1), 0.1);
  EXPECT_EQ(sqlRound(2.35, 1), 2.4);
  EXPECT_EQ(sqlRound(99.96, 1), 100.0);
  EXPECT_EQ(sqlRound(0.0004, 3), 0.0);
}

TEST(SqlRound, LeavesWholeAndHugeValuesAlone) {
  EXPECT_EQ(sqlRound(70428427.0, 1), 70428427.0);
  EXPECT_EQ(sqlRound(1e300, 1), 1e300);
  EXPECT_TRUE(std::isnan(sqlRound(std::nan(""), 1)));
}

TEST(PercentOf, RoundsToOneDecimalAndHandlesAnEmptyWhole) {
  EXPECT_EQ(percentOf(140856854, 254075524), 55.4);  // transpose cudaMalloc
  EXPECT_EQ(percentOf(1, 8), 12.5);
  EXPECT_EQ(percentOf(1, 16), 6.3);  // 6.25, an exact tie
  EXPECT_EQ(percentOf(5, 0), 0.0);
}

}  // namespace
}  // namespace gpuscope
