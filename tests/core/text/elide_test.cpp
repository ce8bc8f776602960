// Eliding in the middle, in terminal columns, without splitting a UTF-8 code point.
#include "core/text/elide.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

TEST(Elide, TextThatFitsStaysWhole) {
  EXPECT_EQ(elideMiddle("saxpy", 5), "saxpy");
  EXPECT_EQ(elideMiddle("saxpy", 80), "saxpy");
  EXPECT_EQ(elideMiddle("", 0), "");
}

TEST(Elide, LongTextKeepsItsStartAndItsEnd) {
  EXPECT_EQ(elideMiddle("void reduce_kernel<512>(T3)", 12), "void r\u2026>(T3)");
  std::string elided = elideMiddle("abcdefghijklmnopqrstuvwxyz", 10);
  EXPECT_EQ(elided, "abcde\u2026wxyz");  // 5 + the ellipsis + 4 columns
  EXPECT_EQ(displayWidth(elided), 10u);
  EXPECT_EQ(elideMiddle("abcdef", 1), "\u2026");
  EXPECT_EQ(elideMiddle("abcdef", 0), "");
}

TEST(Elide, WidthCountsCodePointsAndNeverSplitsOne) {
  EXPECT_EQ(displayWidth("caf\u00e9"), 4u);
  EXPECT_EQ(displayWidth("\u2026"), 1u);
  EXPECT_EQ(displayWidth("caf\xe9_kernel"), 11u);                            // a stray byte is one column
  std::string accents = "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9";  // 8 columns, 16 bytes
  std::string elided = elideMiddle(accents, 5);
  EXPECT_EQ(elided, "\u00e9\u00e9\u2026\u00e9\u00e9");
  EXPECT_EQ(displayWidth(elided), 5u);
}

}  // namespace
}  // namespace gpuscope
