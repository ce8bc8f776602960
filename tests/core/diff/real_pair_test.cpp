// The compare pair of the fixtures: the DataLoader workload with no workers, recorded by gpuscope, against
// the same training with two workers, recorded by nsys (tests/fixtures/README.md). Same model, same data:
// every kernel name is in both runs the same number of times, and the NVTX steps match one for one.
#include <gtest/gtest.h>

#include "core/diff/run_diff.h"
#include "core/model/trace_loader.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;

class RealPair : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    a_ = loadTrace(kFixtures + "/gpuscope/loader0.sqlite");
    b_ = loadTrace(kFixtures + "/nsys/loader2.sqlite");
  }
  static void TearDownTestSuite() {
    a_.reset();
    b_.reset();
  }
  static std::shared_ptr<const Trace> a_;
  static std::shared_ptr<const Trace> b_;
};
std::shared_ptr<const Trace> RealPair::a_;
std::shared_ptr<const Trace> RealPair::b_;

TEST_F(RealPair, EveryKernelNameRanAsOftenInBothRuns) {
  RunDiff diff = diffRuns(*a_, *b_, DiffBy::Kernel);
  ASSERT_EQ(diff.rows.size(), 26u);  // kernels matched by short name
  int64_t kernels = 0;
  for (const DiffRow& row : diff.rows) {
    EXPECT_EQ(row.presence, DiffPresence::Both) << row.name;
    EXPECT_EQ(row.a.count, row.b.count) << row.name;
    kernels += row.a.count;
  }
  EXPECT_EQ(kernels, 984);
}

TEST_F(RealPair, NvtxStepsMatchOneForOne) {
  RunDiff diff = diffRuns(*a_, *b_, DiffBy::Nvtx);
  bool sawStep = false;
  for (const DiffRow& row : diff.rows) {
    if (row.timelineName != "step") continue;
    sawStep = true;
    EXPECT_EQ(row.a.count, row.b.count);
    EXPECT_GT(row.a.count, 0);
  }
  EXPECT_TRUE(sawStep);
}

}  // namespace
}  // namespace gpuscope
