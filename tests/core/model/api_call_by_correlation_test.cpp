// Trace::apiCallByCorrelation: the API call of a process by correlation id, as launchingCall finds a kernel's.
#include <gtest/gtest.h>

#include "core/model/trace_loader.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

TEST(ApiCallByCorrelation, FindsTheCallThatLaunchedEachKernel) {
  auto trace = loadTrace(testing::fixturePath("nsys/transpose.sqlite"));
  size_t checked = 0;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const Track& track = trace->tracks()[t];
    if (track.kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < track.lanes.size(); ++l)
      for (uint32_t i = 0; i < track.lanes[l].size(); ++i) {
        EventRef kernel{t, l, i};
        auto launched = trace->launchingCall(kernel);
        ASSERT_TRUE(launched);
        auto found = trace->apiCallByCorrelation(track.pid, track.lanes[l].correlation[i]);
        ASSERT_TRUE(found);
        EXPECT_EQ(found->track, launched->track);
        EXPECT_EQ(found->index, launched->index);
        ++checked;
      }
  }
  EXPECT_EQ(checked, 30u);
  EXPECT_FALSE(trace->apiCallByCorrelation(trace->tracks()[0].pid, 0));
  EXPECT_FALSE(trace->apiCallByCorrelation(999999, 1));
}

}  // namespace
}  // namespace gpuscope
