// parseDuration: the units people type, and what is refused.
#include "core/model/time_text.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

TEST(ParseDuration, UnitsScaleToNanoseconds) {
  EXPECT_EQ(parseDuration("120"), 120);
  EXPECT_EQ(parseDuration("800ns"), 800);
  EXPECT_EQ(parseDuration("1.5us"), 1500);
  EXPECT_EQ(parseDuration("2 ms"), 2'000'000);
  EXPECT_EQ(parseDuration("0.797876036s"), 797'876'036);
  EXPECT_EQ(parseDuration(" 3s "), 3'000'000'000);
  EXPECT_EQ(parseDuration("-1ms"), -1'000'000);
}

TEST(ParseDuration, RefusesWhatIsNotADuration) {
  EXPECT_FALSE(parseDuration(""));
  EXPECT_FALSE(parseDuration("ms"));
  EXPECT_FALSE(parseDuration("1.5 minutes"));
  EXPECT_FALSE(parseDuration("1e400s"));
  EXPECT_FALSE(parseDuration("1..2ms"));
}

}  // namespace
}  // namespace gpuscope
