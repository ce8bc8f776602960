// A memcpy's kind in the timeline tooltip comes from the one table of nsys labels, Unified kinds included.
#include "ui/timeline/timeline_palette.h"

#include <gtest/gtest.h>

namespace gpuscope::ui {
namespace {

TEST(TimelinePaletteTest, MemoryKindNamesCoverEveryCopyKind) {
  EXPECT_EQ(memoryKindName(1), "Host-to-Device");
  EXPECT_EQ(memoryKindName(10), "Peer-to-Peer");
  EXPECT_EQ(memoryKindName(11), "Unified Host-to-Device");
  EXPECT_EQ(memoryKindName(12), "Unified Device-to-Host");
  EXPECT_EQ(memoryKindName(13), "Unified Device-to-Device");
  EXPECT_EQ(memoryKindName(kMemsetStyle), "memset");
  EXPECT_EQ(memoryKindName(0), "unknown copy kind");
}

}  // namespace
}  // namespace gpuscope::ui
