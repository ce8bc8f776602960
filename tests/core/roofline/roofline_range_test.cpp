// rooflineHomeRange and clampLogRange (issue 30, point 3): the axes of a roofline stay finite and at most
// kMaxRooflineDecades wide for any data: no point, one point, zeros, infinities, NaN and absurd rates.
#include "core/roofline/roofline_range.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpuscope {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
// An H100: FP32 peak 66.9 TFLOP/s and DRAM 3.35 TB/s, in GFLOP/s and GB/s as the views pass them.
constexpr double kPeak = 66'900;
constexpr double kDram = 3'352;

double decadesOf(const LogRange& range) { return std::log10(range.max) - std::log10(range.min); }

void expectSane(const RooflineRange& range) {
  for (const LogRange& axis : {range.x, range.y}) {
    EXPECT_TRUE(std::isfinite(axis.min) && std::isfinite(axis.max));
    EXPECT_GT(axis.min, 0);
    EXPECT_LT(axis.min, axis.max);
    EXPECT_LE(decadesOf(axis), kMaxRooflineDecades + 1e-9);
  }
}

TEST(RooflineHomeRange, DecadesAroundThePointsAndTheRoofs) {
  auto range = rooflineHomeRange({{0.17, 467}}, kPeak, {kDram});
  EXPECT_DOUBLE_EQ(range.x.min, 0.01);
  EXPECT_DOUBLE_EQ(range.x.max, 1000);  // the ridge at 20 FLOP/byte, a decade beyond
  EXPECT_DOUBLE_EQ(range.y.min, 10);
  EXPECT_NEAR(std::log10(range.y.max), 5.3, 1e-12);
}

TEST(RooflineHomeRange, NoDrawablePointKeepsTheRoofsInView) {
  // What a mismatched ncu import gave: every point undrawable, and the y axis ran to 1e300.
  for (const auto& points : {std::vector<RooflineXY>{}, std::vector<RooflineXY>{{0, 0}, {kNan, 5}, {kInf, kInf}}}) {
    auto range = rooflineHomeRange(points, kPeak, {kDram});
    expectSane(range);
    EXPECT_DOUBLE_EQ(range.y.min, 1);
    EXPECT_LT(range.y.max, 1e6);
    EXPECT_DOUBLE_EQ(range.x.min, 0.01);
  }
}

TEST(RooflineHomeRange, OnePointNoRoofs) {
  auto range = rooflineHomeRange({{2, 30}}, 0, {});
  expectSane(range);
  EXPECT_LT(range.x.min, 2);
  EXPECT_GT(range.x.max, 2);
  EXPECT_LT(range.y.min, 30);
  EXPECT_GT(range.y.max, 30);
}

TEST(RooflineHomeRange, AbsurdValuesAreCutToTwelveDecadesUnderTheTop) {
  auto range = rooflineHomeRange({{1e-250, 1e-280}, {1e250, 1e290}, {5, 100}}, kPeak, {kDram, 0, -1, kInf});
  expectSane(range);
  EXPECT_GE(range.y.max, 1e290);  // the highest point is in
  range = rooflineHomeRange({{1e-40, 1e-40}}, kInf, {kNan});
  expectSane(range);
  range = rooflineHomeRange({{1e308, 1e308}}, kPeak, {1e-308});
  expectSane(range);
}

TEST(ClampLogRange, KeepsAUsableRangeAsItIs) {
  auto range = clampLogRange(10, 1e5);
  EXPECT_EQ(range.min, 10);
  EXPECT_EQ(range.max, 1e5);
}

TEST(ClampLogRange, MendsEveryBadRange) {
  for (auto [min, max] :
       {std::pair{0.0, 10.0}, std::pair{-1.0, 5.0}, std::pair{kNan, kNan}, std::pair{1.0, kInf},
        std::pair{1e-320, 1e300}, std::pair{5.0, 5.0}, std::pair{10.0, 1.0}, std::pair{1e-30, 1e30}}) {
    auto range = clampLogRange(min, max);
    EXPECT_TRUE(std::isfinite(range.min) && std::isfinite(range.max)) << min << " " << max;
    EXPECT_GT(range.min, 0) << min << " " << max;
    EXPECT_LT(range.min, range.max) << min << " " << max;
    EXPECT_LE(decadesOf(range), kMaxRooflineDecades + 2 + 1e-9) << min << " " << max;
  }
  // Too wide: the same centre.
  auto range = clampLogRange(1e-30, 1e30);
  EXPECT_NEAR(std::log10(range.min) + std::log10(range.max), 0, 1e-9);
}

}  // namespace
}  // namespace gpuscope
