// The nsys enum labels are declared once (core/schema/nsys_enums.h) and every reader of them agrees.
#include "core/schema/nsys_enums.h"

#include <gtest/gtest.h>

#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

TEST(NsysEnumsTest, MemcpyKindLabelsCoverTheUnifiedKinds) {
  EXPECT_EQ(nsys_enum::memcpyKindLabel(1), "Host-to-Device");
  EXPECT_EQ(nsys_enum::memcpyKindLabel(10), "Peer-to-Peer");
  EXPECT_EQ(nsys_enum::memcpyKindLabel(11), "Unified Host-to-Device");
  EXPECT_EQ(nsys_enum::memcpyKindLabel(13), "Unified Device-to-Device");
  EXPECT_EQ(nsys_enum::memcpyKindLabel(14), "");
  EXPECT_EQ(nsys_enum::memoryKindLabel(5), "Device Static");
}

TEST(NsysEnumsTest, TheStatsAndTheModelUseTheSameLabels) {
  for (const auto& row : nsys_enum::kMemcpyOperRows) {
    EXPECT_EQ(builtinMemcpyKindLabels().at(row.id), row.label);
    EXPECT_EQ(nsys_enum::memcpyOperationName(int64_t{row.id}), "[CUDA memcpy " + std::string(row.label) + "]");
  }
  EXPECT_EQ(nsys_enum::memcpyOperationName(int64_t{99}), "[CUDA memcpy Unknown]");
  for (const auto& row : nsys_enum::kMemKindRows) EXPECT_EQ(builtinMemoryKindLabels().at(row.id), row.label);
}

}  // namespace
}  // namespace gpuscope
