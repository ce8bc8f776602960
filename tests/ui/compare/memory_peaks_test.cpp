// Issue 41, point 6: the compare summary's memory peaks of both runs, side by side.
#include "ui/compare/memory_peaks.h"

#include <gtest/gtest.h>

#include "core/metrics/memory_usage.h"
#include "core/model/trace_loader.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "tests/ui/tables/table_test_support.h"

namespace gpuscope::ui {
namespace {

TEST(CompareMemoryPeaks, BothRunsPeaksSideBySide) {
  auto transpose = loadTrace(testing::gpuMetricsFixture("gm_transpose"));
  auto loader = loadTrace(testing::gpuMetricsFixture("gm_loader2"));
  std::vector<SummaryMetric> peaks = memoryPeakMetrics(*transpose, *loader);
  ASSERT_GE(peaks.size(), 1u);
  EXPECT_EQ(peaks[0].name, "GPU memory peak");
  EXPECT_EQ(peaks[0].unit, "bytes");
  EXPECT_EQ(peaks[0].a, static_cast<double>(int64_t{256} << 20));  // two 128 MiB device buffers
  EXPECT_EQ(peaks[0].b, static_cast<double>(memoryUsage(*loader).devicePeak(0).bytes));
  EXPECT_GT(peaks[0].b, 0);
  if (transpose->devices().front().totalMemory > 0 && loader->devices().front().totalMemory > 0) {
    ASSERT_EQ(peaks.size(), 2u);
    EXPECT_NEAR(peaks[1].a, 100.0 * peaks[0].a / static_cast<double>(transpose->devices().front().totalMemory), 1e-9);
  }
}

TEST(CompareMemoryPeaks, NoneWithoutMemoryUsage) {
  auto plain = test::transposeTrace();
  EXPECT_TRUE(memoryPeakMetrics(*plain, *plain).empty());
}

}  // namespace
}  // namespace gpuscope::ui
