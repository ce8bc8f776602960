// Keeping a merge's inputs apart: each input's hw field and correlation ids start where the previous
// input's end, within the field's 256 values and nsys's 32-bit correlation ids; the SQL that moves the hw
// field agrees with global_id::addHw, the sign bit included.
#include "core/ranks/merge_ids.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"

namespace gpuscope {
namespace {

TEST(MergeIds, EachInputStartsWhereThePreviousEnds) {
  auto offsets = assignIdOffsets({{0, 99}, {2, 9}, {0, -1}, {0, 4}});
  ASSERT_EQ(offsets.size(), 4u);
  EXPECT_EQ(offsets[0].hwAdd, 0u);
  EXPECT_EQ(offsets[0].correlationAdd, 0);
  EXPECT_EQ(offsets[1].hwAdd, 1u);
  EXPECT_EQ(offsets[1].correlationAdd, 100);
  EXPECT_EQ(offsets[2].hwAdd, 4u);  // the second input uses hw 1..3
  EXPECT_EQ(offsets[2].correlationAdd, 110);
  EXPECT_EQ(offsets[3].hwAdd, 5u);
  EXPECT_EQ(offsets[3].correlationAdd, 111);
}

TEST(MergeIds, MoreInputsThanTheHwFieldHoldsAreRefused) {
  std::vector<InputIdSpan> spans(global_id::kHwValues, InputIdSpan{0, 10});
  EXPECT_EQ(assignIdOffsets(spans).back().hwAdd, global_id::kHwValues - 1);
  spans.push_back({0, 10});
  EXPECT_THROW(assignIdOffsets(spans), TraceError);
}

TEST(MergeIds, CorrelationIdsPastThirtyTwoBitsAreRefused) {
  int64_t most = std::numeric_limits<uint32_t>::max();
  EXPECT_NO_THROW(assignIdOffsets({{0, most - 10}, {0, 9}}));
  EXPECT_THROW(assignIdOffsets({{0, most - 10}, {0, 10}}), TraceError);
}

TEST(MergeIds, SqlHwMoveMatchesAddHwAcrossTheSignBit) {
  auto path = (std::filesystem::path(::testing::TempDir()) / "merge_ids_hw.sqlite").string();
  auto db = Database::create(path);
  const int64_t ids[] = {global_id::make(0, 1, 545, 7), global_id::make(127, 1, 5, 5), global_id::make(200, 0, 1, 1)};
  for (uint32_t add : {1u, 3u, 50u}) {
    for (int64_t id : ids) {
      if (global_id::hw(id) + add >= global_id::kHwValues) continue;
      auto moved =
          db.prepare("SELECT " + global_id::sqlAddHw("?1", add) + ", typeof(" + global_id::sqlAddHw("?1", add) + ")");
      moved.bind(1, id);
      ASSERT_TRUE(moved.step());
      EXPECT_EQ(moved.text(1), "integer");
      EXPECT_EQ(moved.int64(0), global_id::addHw(id, add)) << id << " + " << add;
      EXPECT_EQ(global_id::hw(moved.int64(0)), global_id::hw(id) + add);
      EXPECT_EQ(global_id::pid(moved.int64(0)), global_id::pid(id));
      EXPECT_EQ(global_id::vm(moved.int64(0)), global_id::vm(id));
    }
  }
}

}  // namespace
}  // namespace gpuscope
