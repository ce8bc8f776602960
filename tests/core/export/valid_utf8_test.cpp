// validUtf8: well-formed text kept, each bad byte replaced by U+FFFD.
#include "core/export/valid_utf8.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

TEST(ValidUtf8, KeepsWellFormedText) {
  EXPECT_EQ(validUtf8("plain"), "plain");
  EXPECT_EQ(validUtf8("\xC3\xA9t\xE2\x82\xAC \xF0\x9F\x98\x80"), "\xC3\xA9t\xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(ValidUtf8, ReplacesEachBadByte) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(validUtf8("a\xFF"
                      "b"),
            "a" + r + "b");
  EXPECT_EQ(validUtf8("\xC0\xAF"), r + r);                  // overlong '/'
  EXPECT_EQ(validUtf8("\xED\xA0\x80"), r + r + r);          // a UTF-16 surrogate
  EXPECT_EQ(validUtf8("\xF4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(validUtf8("x\xE2\x82"), "x" + r + r);           // truncated at the end
}

}  // namespace
}  // namespace gpuscope
