// Kernel instances and per-name totals on the transpose fixture, against SQL.
#include "core/details/kernel_list.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/db/sqlite_database.h"
#include "core/model/trace_loader.h"

namespace gpuscope {
namespace {

TEST(KernelList, TransposeInstancesAndGroups) {
  auto trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  auto instances = kernelInstances(*trace);
  ASSERT_EQ(instances.size(), 30u);
  EXPECT_TRUE(std::is_sorted(instances.begin(), instances.end(),
                             [&](const EventRef& a, const EventRef& b) { return trace->start(a) < trace->start(b); }));

  auto groups = summarizeKernels(*trace, instances);
  ASSERT_EQ(groups.size(), 3u);
  auto stmt = trace->database().prepare(
      "SELECT s.value, count(*), sum(k.end - k.start), min(k.end - k.start), max(k.end - k.start), min(k.start)"
      " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName GROUP BY s.value"
      " ORDER BY sum(k.end - k.start) DESC");
  double shares = 0.0;
  for (const auto& group : groups) {
    ASSERT_TRUE(stmt.step());
    EXPECT_EQ(trace->string(group.name), stmt.text(0));
    EXPECT_EQ(static_cast<int64_t>(group.count), stmt.int64(1));
    EXPECT_EQ(group.total, stmt.int64(2));
    EXPECT_EQ(group.min, stmt.int64(3));
    EXPECT_EQ(group.max, stmt.int64(4));
    EXPECT_EQ(trace->start(group.first), stmt.int64(5));
    shares += group.share;
  }
  EXPECT_NEAR(shares, 1.0, 1e-12);
  // nsys's cuda_gpu_kern_sum for this file: transposeNaive is 72.0 % of kernel time, 6558882 ns over 10 calls.
  EXPECT_EQ(trace->string(groups[0].name), "transposeNaive");
  EXPECT_EQ(groups[0].total, 6558882);
  EXPECT_NEAR(groups[0].share * 100.0, 72.0, 0.05);
  EXPECT_DOUBLE_EQ(groups[0].average(), 655888.2);
}

TEST(KernelList, AGroupsFirstIsItsEarliestKernelWhateverTheOrderOfAdding) {
  auto trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  auto instances = kernelInstances(*trace);
  auto inTimeOrder = summarizeKernels(*trace, instances, KernelGrouping::DemangledName);
  std::reverse(instances.begin(), instances.end());
  auto reversed = summarizeKernels(*trace, instances, KernelGrouping::DemangledName);
  ASSERT_EQ(reversed.size(), inTimeOrder.size());
  for (size_t g = 0; g < reversed.size(); ++g) {
    EXPECT_EQ(reversed[g].first, inTimeOrder[g].first) << trace->string(reversed[g].longName);
    EXPECT_EQ(reversed[g].name, inTimeOrder[g].name);
    EXPECT_EQ(reversed[g].count, inTimeOrder[g].count);
    EXPECT_EQ(reversed[g].total, inTimeOrder[g].total);
  }
}

}  // namespace
}  // namespace gpuscope
