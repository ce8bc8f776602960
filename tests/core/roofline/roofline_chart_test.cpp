// loadRooflineChart: the one function every roofline view asks, on transpose.sqlite with the fixture's ncu
// metrics, on a trace without metrics, and on a trace whose metrics table cannot be read.
#include "core/roofline/roofline_chart.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

namespace fs = std::filesystem;
using testing::kFixtures;
using testing::processTempPath;

std::shared_ptr<const Trace> traceWithMetrics() {
  std::string path = processTempPath("gpuscope_roofline_chart", "metrics.sqlite");
  importNcuMetrics({kFixtures + "/nsys/transpose.sqlite", kFixtures + "/nsys/transpose_ncu_metrics.csv", path, false});
  auto trace = loadTrace(path);
  fs::remove(path);  // the open connection keeps the contents
  return trace;
}

TEST(RooflineChart, HoldsKernelsTheirEventsRoofsAndPoints) {
  auto trace = traceWithMetrics();
  RooflineChart chart = loadRooflineChart(*trace);
  ASSERT_TRUE(chart.hasMetrics());
  EXPECT_TRUE(chart.metricsError.empty());
  EXPECT_TRUE(chart.warnings.empty());
  ASSERT_EQ(chart.kernels.size(), 6u);
  ASSERT_EQ(chart.events.size(), 6u);
  for (size_t i = 0; i < chart.kernels.size(); ++i) {
    ASSERT_TRUE(chart.events[i].has_value()) << i;
    EventRef ref = *chart.events[i];
    EXPECT_EQ(trace->track(ref.track).kind, TrackKind::GpuKernels);
    EXPECT_EQ(trace->lane(ref).correlation[ref.index], chart.kernels[i].metrics.correlationId);
    EXPECT_EQ(trace->start(ref), chart.kernels[i].start);
  }
  EXPECT_EQ(chart.roofs().deviceName, trace->devices().front().name);
  EXPECT_GT(chart.roofs().peak(Precision::Fp32), 0);
  EXPECT_GT(chart.roofs().bandwidthOf(MemoryLevel::Dram), 0);
  EXPECT_EQ(chart.points(RooflineGrouping::Instance).size(), 6u);
  EXPECT_EQ(chart.points(RooflineGrouping::Name).size(), 3u);
  EXPECT_FALSE(chart.ranges.empty());  // the fixture has NVTX ranges
  EXPECT_EQ(chart.points(RooflineGrouping::Nvtx).size(), 2u);
  // A point leads to its kernel and its event, a kernel is found from any thread of its process.
  auto point = chart.points(RooflineGrouping::Instance).front();
  auto event = chart.eventOf(point);
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(trace->lane(*event).correlation[event->index], point.correlationId);
  const RooflineKernel* kernel = chart.kernelOf(trace->track(event->track).globalTid, point.correlationId);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->metrics.correlationId, point.correlationId);
  EXPECT_EQ(chart.kernelOf(trace->track(event->track).globalTid, 0xfffffff0u), nullptr);
}

TEST(RooflineChart, TraceWithoutMetricsHasNoKernelsAndNoError) {
  auto trace = loadTrace(kFixtures + "/nsys/transpose.sqlite");
  RooflineChart chart = loadRooflineChart(*trace);
  EXPECT_FALSE(chart.hasMetrics());
  EXPECT_TRUE(chart.metricsError.empty());
  EXPECT_TRUE(chart.points(RooflineGrouping::Name).empty());
  EXPECT_EQ(chart.roofs().peak(Precision::Fp32), 0);
}

TEST(RooflineChart, UnreadableMetricsTableIsOneSentenceNotAThrow) {
  std::string path = processTempPath("gpuscope_roofline_chart", "broken.sqlite");
  fs::copy_file(kFixtures + "/nsys/transpose.sqlite", path, fs::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE GPUSCOPE_KERNEL_METRICS (something INTEGER)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto trace = loadTrace(path);
  fs::remove(path);
  RooflineChart chart;
  EXPECT_NO_THROW(chart = loadRooflineChart(*trace));
  EXPECT_FALSE(chart.hasMetrics());
  EXPECT_NE(chart.metricsError.find("GPUSCOPE_KERNEL_METRICS"), std::string::npos) << chart.metricsError;
}

}  // namespace
}  // namespace gpuscope
