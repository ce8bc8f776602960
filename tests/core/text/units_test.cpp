// The units of core/text, which the CLI and both roofline charts share.
#include "core/text/units.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

TEST(UnitsTest, RoofsReadTheSameWhereverTheyAreShown) {
  // The H100 SXM roofs that roofline_view_test and compare_roofline_test draw.
  EXPECT_EQ(bandwidthText(3352.32e9), "3.352 TB/s");
  EXPECT_EQ(flopRateText(66908.16e9), "66.9 TFLOP/s");
  EXPECT_EQ(flopRateText(4.669e11), "467 GFLOP/s");
}

TEST(UnitsTest, DurationsAndBytes) {
  EXPECT_EQ(formatDuration(890), "890 ns");
  EXPECT_EQ(formatDuration(1'234'000), "1.234 ms");
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1536), "1.50 KiB");
  EXPECT_EQ(intensityText(0.17333), "0.1733 FLOP/byte");
}

TEST(UnitsTest, CountsWithThousandsSeparators) {
  EXPECT_EQ(formatCount(0), "0");
  EXPECT_EQ(formatCount(999), "999");
  EXPECT_EQ(formatCount(1000), "1,000");
  EXPECT_EQ(formatCount(1234567), "1,234,567");
  EXPECT_EQ(withThousands("-1234567.5"), "-1,234,567.5");
  EXPECT_EQ(withThousands("123.4567"), "123.4567");
  EXPECT_EQ(withThousands(""), "");
}

}  // namespace
}  // namespace gpuscope
