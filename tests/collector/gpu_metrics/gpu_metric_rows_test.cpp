// PM samples -> GPU_METRICS rows, as nsys lays them out.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "collector/gpu_metrics/metric_rows.h"
#include "core/metrics/gpu_metric_names.h"

namespace gpuscope {
namespace {

using gpu_metrics::GpuMetricRow;

TEST(GpuMetricRows, TypeIdIsNsysGlobalIdWithTheDeviceInItsLowByte) {
  // nsys's export: 281479271677952 for device 0.
  EXPECT_EQ(gpu_metrics::gpuMetricTypeId(0), 281479271677952);
  EXPECT_EQ(gpu_metrics::gpuMetricTypeId(3), 281479271677952 + 3);
  EXPECT_EQ(gpu_metric::deviceOfType(gpu_metrics::gpuMetricTypeId(7)), 7);
}

TEST(GpuMetricRows, OneRowPerMetricStampedWithTheSampleEndAndRounded) {
  const auto& set = *gpu_metrics::findMetricSet("utilization");
  // In the set's order: GPC clock, SYS clock, GR Active, SMs Active, SM Issue, Tensor Active, warps %, warps avg.
  std::vector<double> values = {1.98e9 + 0.4, 1662140000.6, 99.5, 77.2592, 0.49, -0.0001, 70.5711, 2.5344e8};
  std::vector<GpuMetricRow> rows;
  gpu_metrics::appendSampleRows(set, 1, 5'000'000, values, rows);
  ASSERT_EQ(rows.size(), set.counters.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].timestamp, 5'000'000);
    EXPECT_EQ(rows[i].typeId, 281479271677953);
    EXPECT_EQ(rows[i].metricId, set.counters[i].metricId);
  }
  EXPECT_EQ(rows[0].value, 1980000000);  // Hz, as nsys stores the [MHz] rows
  EXPECT_EQ(rows[1].value, 1662140001);
  EXPECT_EQ(rows[2].value, 100);  // half up
  EXPECT_EQ(rows[3].value, 77);
  EXPECT_EQ(rows[4].value, 0);
  EXPECT_EQ(rows[5].value, 0);  // CUPTI's negative noise is no negative percent
  EXPECT_EQ(rows[6].value, 71);
  EXPECT_EQ(rows[7].value, 253440000);
}

TEST(GpuMetricRows, MissingValuesGiveNoRowAndNanIsZero) {
  const auto& set = *gpu_metrics::findMetricSet("gh100");
  std::vector<double> values = {std::numeric_limits<double>::quiet_NaN(), 2.0};
  std::vector<GpuMetricRow> rows;
  gpu_metrics::appendSampleRows(set, 0, 1, values, rows);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].value, 0);
  EXPECT_EQ(rows[1].value, 2);
}

TEST(GpuMetricRows, NamesCarryTheSetsIdsAndSourceIdEqualsTypeId) {
  const auto& set = *gpu_metrics::findMetricSet("gh100");
  auto names = gpu_metrics::metricNameRows(set, 2);
  ASSERT_EQ(names.size(), set.counters.size());
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(names[i].typeId, gpu_metrics::gpuMetricTypeId(2));
    EXPECT_EQ(names[i].sourceId, names[i].typeId);
    EXPECT_EQ(names[i].metricId, set.counters[i].metricId);
    EXPECT_EQ(names[i].name, set.counters[i].name);
  }
}

TEST(GpuMetricRows, GpuTimestampsMoveToTheSessionClock) {
  // The GPU's timer reads CLOCK_REALTIME; the session clock is CLOCK_MONOTONIC: read together, they give
  // the offset. Measured on an H200: a sample ending 1.3 ms after the pair was read.
  int64_t realtime = 1795934804747265641;
  int64_t session = 29564526450;
  EXPECT_EQ(gpu_metrics::sessionTimeOfGpuTime(1795934804748732008ULL, realtime, session), 29564526450 + 1466367);
}

}  // namespace
}  // namespace gpuscope
