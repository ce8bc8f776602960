// GPU metrics read from nsys's exports: the series, the timeline's bins and a kernel's sampled means, each
// checked against an independent SQL query over the same file.
#include "core/metrics/gpu_metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/sampled_means.h"
#include "tests/core/testing/metrics_fixtures.h"

namespace gpuscope {
namespace {

int64_t scalar(const Database& db, const std::string& sql) {
  Statement statement = db.prepare(sql);
  EXPECT_TRUE(statement.step()) << sql;
  return statement.int64(0);
}

std::string metricIdOf(std::string_view name) {
  return "(SELECT metricId FROM TARGET_INFO_GPU_METRICS WHERE metricName = '" + std::string(name) + "')";
}

class GpuMetricsFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuMetricsFixture, EveryRowIsInOneSeriesOfDeviceZero) {
  Database db = Database::openReadOnly(testing::gpuMetricsFixture(GetParam()));
  GpuMetrics metrics = readGpuMetrics(db);
  ASSERT_EQ(metrics.devices.size(), 1u);
  EXPECT_EQ(metrics.devices[0].deviceId, 0);
  EXPECT_EQ(metrics.devices[0].metrics.size(), 22u);
  EXPECT_EQ(static_cast<int64_t>(metrics.sampleCount()), scalar(db, "SELECT count(*) FROM GPU_METRICS"));
  EXPECT_EQ(metrics.refusedRows, 0u);
  // The timeline's order: GR Active first, then SMs Active.
  EXPECT_EQ(metrics.devices[0].metrics[0].name(), gpu_metric::kGrActive);
  EXPECT_EQ(metrics.devices[0].metrics[1].name(), gpu_metric::kSmsActive);
  // Recorded at 1 kHz.
  EXPECT_NEAR(metrics.devices[0].frequencyHz(), 1000.0, 5.0);
}

// The bins a counter row draws hold the count, mean, min and max an SQL GROUP BY gives over the same bins.
TEST_P(GpuMetricsFixture, BinsEqualAnSqlAverageOverTheSameBins) {
  Database db = Database::openReadOnly(testing::gpuMetricsFixture(GetParam()));
  GpuMetrics metrics = readGpuMetrics(db);
  ASSERT_FALSE(metrics.empty());
  int64_t t0 = scalar(db, "SELECT min(timestamp) FROM GPU_METRICS") - 12345;
  int64_t t1 = scalar(db, "SELECT max(timestamp) FROM GPU_METRICS");
  const size_t bins = 97;  // not a divisor of anything: bins fall between samples and on them
  int64_t width = (t1 - t0) / static_cast<int64_t>(bins) + 1;
  for (std::string_view name : {gpu_metric::kSmsActive, gpu_metric::kDramRead, gpu_metric::kGpcClock}) {
    const MetricSeries* series = metrics.devices[0].find(name);
    ASSERT_NE(series, nullptr) << name;
    std::vector<SeriesStats> binned = binSeries(*series, t0, width, bins);
    Statement sql = db.prepare(
        "SELECT (timestamp - ?1) / ?2 AS bin, count(*), avg(value), min(value), max(value) "
        "FROM GPU_METRICS WHERE metricId = " +
        metricIdOf(name) + " GROUP BY bin ORDER BY bin");
    sql.bind(1, t0);
    sql.bind(2, width);
    size_t seen = 0;
    while (sql.step()) {
      size_t bin = static_cast<size_t>(sql.int64(0));
      ASSERT_LT(bin, bins);
      EXPECT_EQ(binned[bin].count, static_cast<size_t>(sql.int64(1))) << name << " bin " << bin;
      EXPECT_NEAR(binned[bin].mean(), sql.real(2), 1e-9 * std::abs(sql.real(2)) + 1e-12) << name << " bin " << bin;
      EXPECT_EQ(binned[bin].min, sql.int64(3)) << name << " bin " << bin;
      EXPECT_EQ(binned[bin].max, sql.int64(4)) << name << " bin " << bin;
      seen += binned[bin].count;
    }
    EXPECT_EQ(seen, series->size()) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, GpuMetricsFixture, ::testing::Values("gm_transpose", "gm_loader2"));

// A stretch's sampled means are those of the samples whose whole interval [t, t + period) lies inside it. The transpose
// kernels (0.1-0.6 ms) are each shorter than the fixture's 1 ms samples, so the stretch is the span of all of them.
TEST(SampledMeans, TheTransposeLoopAveragesTheSamplesInsideIt) {
  Database db = Database::openReadOnly(testing::gpuMetricsFixture("gm_transpose"));
  GpuMetrics metrics = readGpuMetrics(db);
  ASSERT_FALSE(metrics.empty());
  TimeNs period = metrics.devices[0].period;
  Statement longest = db.prepare("SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  ASSERT_TRUE(longest.step());
  TimeInterval kernel{longest.int64(0), longest.int64(1)};
  SampledMeans means = sampledMeans(metrics, 0, kernel);
  ASSERT_TRUE(means.haveMetrics);
  ASSERT_GE(means.samples, kLeastSamplesForMeans);
  const SampledMean* sms = means.find(gpu_metric::kSmsActive);
  ASSERT_NE(sms, nullptr);
  Statement sql =
      db.prepare("SELECT avg(value), count(*) FROM GPU_METRICS WHERE metricId = " + metricIdOf(gpu_metric::kSmsActive) +
                 " AND timestamp >= ?2 AND timestamp + ?1 <= ?3");
  sql.bind(1, period);
  sql.bind(2, kernel.start);
  sql.bind(3, kernel.end);
  ASSERT_TRUE(sql.step());
  EXPECT_EQ(means.samples, static_cast<size_t>(sql.int64(1)));
  EXPECT_NEAR(sms->mean, sql.real(0), 1e-9);
  EXPECT_GT(sms->mean, 50.0) << "the transpose kernels keep the SMs busy";
  // Each kernel alone is too short for 1 kHz.
  Statement first = db.prepare("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY end - start DESC LIMIT 1");
  ASSERT_TRUE(first.step());
  EXPECT_TRUE(sampledMeans(metrics, 0, {first.int64(0), first.int64(1)}).tooShort());
}

TEST(SampledMeans, AKernelShorterThanThreeSamplesIsTooShort) {
  Database db = Database::openReadOnly(testing::gpuMetricsFixture("gm_transpose"));
  GpuMetrics metrics = readGpuMetrics(db);
  ASSERT_FALSE(metrics.empty());
  TimeNs t = metrics.devices[0].metrics[0].times()[10];
  SampledMeans means = sampledMeans(metrics, 0, {t - 100, t + 2 * metrics.devices[0].period + 100});
  EXPECT_TRUE(means.haveMetrics);
  EXPECT_TRUE(means.tooShort());
  EXPECT_TRUE(means.means.empty());
  EXPECT_NEAR(means.frequencyHz, 1000.0, 5.0);
  // Another GPU has no samples at all: no metrics, not too short.
  SampledMeans none = sampledMeans(metrics, 3, {t, t + 1'000'000'000});
  EXPECT_FALSE(none.haveMetrics);
  EXPECT_FALSE(none.tooShort());
}

TEST(MetricSeries, StatsOfAnyRangeEqualAWalkOverIt) {
  std::vector<TimeNs> time;
  std::vector<int64_t> value;
  for (int i = 0; i < 1000; ++i) {
    time.push_back(i * 10);
    value.push_back((i * 7919) % 101 - 50);
  }
  MetricSeries series("x", time, value);
  for (size_t first : {0u, 1u, 63u, 64u, 65u, 500u}) {
    for (size_t last : {first, first + 1, first + 63, first + 64, first + 129, size_t{1000}}) {
      if (last > 1000 || last < first) continue;
      SeriesStats stats = series.statsOf(first, last);
      ASSERT_EQ(stats.count, last - first);
      if (first == last) continue;
      int64_t sum = 0, low = value[first], high = value[first];
      for (size_t i = first; i < last; ++i) {
        sum += value[i];
        low = std::min(low, value[i]);
        high = std::max(high, value[i]);
      }
      EXPECT_EQ(stats.sum, sum) << first << ".." << last;
      EXPECT_EQ(stats.min, low) << first << ".." << last;
      EXPECT_EQ(stats.max, high) << first << ".." << last;
    }
  }
}

// Rows a file cannot hold as numbers are counted and named, never read as values.
TEST(GpuMetricsRead, TextValuesAndUnnamedMetricsAreRefusedAndCounted) {
  std::string path = ::testing::TempDir() + "gpu_metrics_refused.sqlite";
  std::filesystem::remove(path);
  {
    Database db = Database::create(path);
    db.exec(
        "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER, sourceId INTEGER, typeName TEXT, metricId "
        "INTEGER, metricName TEXT)");
    db.exec(
        "CREATE TABLE GPU_METRICS (rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER, "
        "value INTEGER)");
    db.exec("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (258, 258, '', 3, 'SMs Active [Throughput %]')");
    db.exec(
        "INSERT INTO GPU_METRICS VALUES (30, 30, 258, 3, 40), (10, 10, 258, 3, 20), (20, 20, 258, 3, 'lots'), "
        "(40, 40, 258, 9, 1), (50, 'later', 258, 3, 1)");
  }
  GpuMetrics metrics = readGpuMetrics(Database::openReadOnly(path));
  ASSERT_EQ(metrics.devices.size(), 1u);
  EXPECT_EQ(metrics.devices[0].deviceId, 2);  // 258 & 0xFF
  const MetricSeries* sms = metrics.devices[0].find(gpu_metric::kSmsActive);
  ASSERT_NE(sms, nullptr);
  ASSERT_EQ(sms->size(), 2u);
  EXPECT_EQ(sms->times()[0], 10);  // sorted by time
  EXPECT_EQ(sms->values()[0], 20);
  EXPECT_EQ(metrics.refusedRows, 3u);
  EXPECT_NE(metrics.refusedWhy.find("not an integer"), std::string::npos) << metrics.refusedWhy;
}

}  // namespace
}  // namespace gpuscope
