#include "core/roofline/roofline.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "core/model/trace_file.h"
#include "core/ncu/ncu_import.h"
#include "core/ncu/ncu_report.h"
#include "core/report/report_format.h"
#include "core/roofline/roofline_report.h"
#include "core/stats/nvtx_ranges.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;

// A made-up GPU: 1000 GFLOP/s FP32, 500 GFLOP/s FP64, DRAM 100 GB/s, L2 400 GB/s, L1 unknown.
DeviceRoofs testRoofs() {
  DeviceRoofs roofs;
  roofs.peakFlops = {500e9, 1000e9, 0, 0};
  roofs.bandwidth = {100e9, 400e9, 0};
  return roofs;
}

RooflinePoint point(double fp32, double dram, double l2, int64_t durationNs) {
  RooflinePoint p;
  p.flops[static_cast<size_t>(Precision::Fp32)] = fp32;
  p.bytes[static_cast<size_t>(MemoryLevel::Dram)] = dram;
  p.bytes[static_cast<size_t>(MemoryLevel::L2)] = l2;
  p.durationNs = durationNs;
  p.instances = 1;
  return p;
}

TEST(Roofline, MemoryBoundPoint) {
  // 2 GFLOP over 1 GB of DRAM and 2 GB of L2 in 10 ms.
  auto a = assessPoint(point(2e9, 1e9, 2e9, 10'000'000), testRoofs());
  EXPECT_EQ(a.precision, Precision::Fp32);
  EXPECT_DOUBLE_EQ(a.achievedFlopsPerSecond, 200e9);
  EXPECT_DOUBLE_EQ(*a.intensityOf(MemoryLevel::Dram), 2.0);
  EXPECT_DOUBLE_EQ(*a.intensityOf(MemoryLevel::L2), 1.0);
  EXPECT_FALSE(a.intensityOf(MemoryLevel::L1));
  EXPECT_DOUBLE_EQ(*a.attainable[0], 200e9);  // 2 FLOP/B x 100 GB/s
  EXPECT_DOUBLE_EQ(*a.attainable[1], 400e9);  // 1 FLOP/B x 400 GB/s
  EXPECT_DOUBLE_EQ(*a.attainableFlopsPerSecond, 200e9);
  EXPECT_EQ(a.limiter, "DRAM");
  EXPECT_DOUBLE_EQ(*a.shareOfAttainable, 1.0);
}

TEST(Roofline, ComputeBoundPoint) {
  // 1 TFLOP over 1 GB: intensity 1000, far right of the ridge (10 FLOP/B); 4 s -> 250 GFLOP/s.
  auto a = assessPoint(point(1e12, 1e9, 1e9, 4'000'000'000), testRoofs());
  EXPECT_DOUBLE_EQ(*a.attainableFlopsPerSecond, 1000e9);
  EXPECT_EQ(a.limiter, "FP32 peak");
  EXPECT_DOUBLE_EQ(*a.shareOfAttainable, 0.25);
}

TEST(Roofline, ZeroFlopsAndNoBytes) {
  auto zero = assessPoint(point(0, 1e9, 1e9, 1000), testRoofs());
  EXPECT_DOUBLE_EQ(*zero.intensityOf(MemoryLevel::Dram), 0.0);
  EXPECT_DOUBLE_EQ(*zero.attainableFlopsPerSecond, 0.0);
  EXPECT_EQ(zero.limiter, "DRAM");
  EXPECT_FALSE(zero.shareOfAttainable);
  RooflinePoint bare;
  bare.flops[static_cast<size_t>(Precision::Fp32)] = 1e9;
  bare.durationNs = 1'000'000'000;
  auto onlyPeak = assessPoint(bare, testRoofs());
  EXPECT_DOUBLE_EQ(*onlyPeak.attainableFlopsPerSecond, 1000e9);
  EXPECT_DOUBLE_EQ(*onlyPeak.shareOfAttainable, 0.001);
  EXPECT_FALSE(assessPoint(bare, DeviceRoofs{}).attainableFlopsPerSecond);
}

TEST(Roofline, DominantPrecisionPicksTheRoof) {
  auto p = point(1e9, 1e12, 1e12, 1'000'000'000);
  p.flops[static_cast<size_t>(Precision::Fp64)] = 3e9;
  auto a = assessPoint(p, testRoofs());
  EXPECT_EQ(a.precision, Precision::Fp64);
  EXPECT_DOUBLE_EQ(a.flops, 4e9);
  EXPECT_DOUBLE_EQ(*a.intensityOf(MemoryLevel::Dram), 0.004);
  // DRAM bound: 0.004 x 100 GB/s = 0.4 GFLOP/s, under the 500 GFLOP/s FP64 peak.
  EXPECT_DOUBLE_EQ(*a.attainableFlopsPerSecond, 0.4e9);
}

RooflineKernel kernel(const std::string& name, uint32_t correlation, int64_t start, int64_t duration, double flops,
                      int64_t tid, int64_t launchStart) {
  RooflineKernel k;
  k.name = name;
  k.metrics.correlationId = correlation;
  k.metrics.durationNs = duration;
  k.metrics.flops[static_cast<size_t>(Precision::Fp32)] = flops;
  k.metrics.bytes[static_cast<size_t>(MemoryLevel::Dram)] = 10 * flops;
  k.start = start;
  k.end = start + duration + 5;
  k.hasLaunch = true;
  k.launchGlobalTid = tid;
  k.launchStart = launchStart;
  k.launchEnd = launchStart + 1;
  return k;
}

TEST(Roofline, GroupsByNameAndNvtxRange) {
  std::vector<RooflineKernel> kernels = {kernel("A", 1, 100, 10, 1, 7, 10), kernel("B", 2, 200, 60, 2, 7, 20),
                                         kernel("A", 3, 300, 30, 4, 8, 30), kernel("A", 4, 400, 10, 8, 7, 90)};
  auto instances = rooflinePoints(kernels, RooflineGrouping::Instance);
  ASSERT_EQ(instances.size(), 4u);
  EXPECT_EQ(instances[2].correlationId, 3u);
  EXPECT_EQ(instances[2].durationNs, 30);

  auto names = rooflinePoints(kernels, RooflineGrouping::Name);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].label, "B");  // longest total first: B 60 ns, A 50 ns
  EXPECT_EQ(names[1].label, "A");
  EXPECT_EQ(names[1].instances, 3u);
  EXPECT_EQ(names[1].durationNs, 50);
  EXPECT_DOUBLE_EQ(*names[1].flopsOf(Precision::Fp32), 13.0);
  EXPECT_DOUBLE_EQ(*names[1].bytesOf(MemoryLevel::Dram), 130.0);
  EXPECT_EQ(names[1].correlationId, 1u);
  EXPECT_FALSE(names[1].flopsOf(Precision::Fp64));

  // Thread 7: "outer" [0, 50] with a nested "outer" [5, 25] and "inner" [15, 25]; thread 8: "inner" [0, 100].
  std::vector<NvtxRange> ranges = {
      {0, 50, 7, ":outer"}, {5, 25, 7, ":outer"}, {15, 25, 7, ":inner"}, {0, 100, 8, ":inner"}};
  auto nvtx = rooflinePoints(kernels, RooflineGrouping::Nvtx, ranges);
  ASSERT_EQ(nvtx.size(), 2u);
  EXPECT_EQ(nvtx[0].label, ":inner");  // kernel 2 (60 ns) + kernel 3 (30 ns, thread 8)
  EXPECT_EQ(nvtx[0].instances, 2u);
  EXPECT_EQ(nvtx[0].durationNs, 90);
  EXPECT_EQ(nvtx[1].label, ":outer");  // kernels 1 and 2 once each; kernel 4 launched at 90 is outside
  EXPECT_EQ(nvtx[1].instances, 2u);
  EXPECT_DOUBLE_EQ(*nvtx[1].flopsOf(Precision::Fp32), 3.0);
}

class RooflineFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = (std::filesystem::temp_directory_path() / ("gpuscope_roofline_" + std::to_string(::getpid()) + ".sqlite"))
                .string();
    importNcuMetrics(
        {kFixtures + "/nsys/transpose.sqlite", kFixtures + "/nsys/transpose_ncu_metrics.csv", path_, false});
  }
  static void TearDownTestSuite() { std::filesystem::remove(path_); }
  static std::string path_;
};
std::string RooflineFixture::path_;

TEST_F(RooflineFixture, KernelsByName) {
  auto db = openTraceFile(path_);
  auto data = loadRoofline(db, RooflineGrouping::Name);
  EXPECT_EQ(data.kernelsWithMetrics, 6u);
  ASSERT_EQ(data.roofs.size(), 1u);
  ASSERT_EQ(data.points.size(), 3u);
  const double n = 8192.0 * 4096.0;  // saxpy's elements in transpose.cu
  for (const auto& p : data.points) {
    EXPECT_EQ(p.instances, 2u);
    bool saxpy = p.label.rfind("saxpy", 0) == 0;
    EXPECT_EQ(p.totalFlops(), saxpy ? 2 * 2 * n : 0.0) << p.label;
    auto a = assessPoint(p, data.roofsOf(p.deviceId));
    EXPECT_EQ(a.limiter, "DRAM") << p.label;
    if (saxpy) {
      EXPECT_EQ(*p.bytesOf(MemoryLevel::Dram), 387198208.0 + 387371776.0);
      EXPECT_EQ(p.durationNs, 143744 + 142688);
      EXPECT_DOUBLE_EQ(*a.intensityOf(MemoryLevel::Dram), 4 * n / (387198208.0 + 387371776.0));
      EXPECT_GT(*a.shareOfAttainable, 0.5);
      EXPECT_LT(*a.shareOfAttainable, 1.0);
    }
  }
  EXPECT_EQ(data.points[0].label, "transposeNaive(float *, const float *, int, int)");  // longest
}

TEST_F(RooflineFixture, NvtxRangesHoldTheTransposes) {
  auto db = openTraceFile(path_);
  auto data = loadRoofline(db, RooflineGrouping::Nvtx);
  ASSERT_EQ(data.points.size(), 2u);  // saxpy is launched outside every range
  EXPECT_EQ(data.points[0].label, ":naive");
  EXPECT_EQ(data.points[0].instances, 2u);
  EXPECT_EQ(*data.points[0].bytesOf(MemoryLevel::Dram), 313716480.0 + 313139456.0);
  EXPECT_EQ(data.points[1].label, ":shared");
}

// ncu's roofline section of another run: achieved DRAM bandwidth and zero FP32 work for the transposes.
TEST_F(RooflineFixture, AgreesWithNcuRooflineSection) {
  auto db = openTraceFile(path_);
  auto data = loadRoofline(db, RooflineGrouping::Name);
  auto section = readNcuCsvFile(kFixtures + "/nsys/transpose_ncu_roofline.csv");
  const std::string chart = "GPU Speed Of Light Roofline Chart";
  for (const auto& kernel : section.kernels) {
    const RooflinePoint* ours = nullptr;
    for (const auto& p : data.points)
      if (p.label == kernel.name) ours = &p;
    ASSERT_NE(ours, nullptr) << kernel.name;
    double ncuBandwidth = *kernel.value(chart, "Single Precision Achieved Value", "DRAM Bandwidth");
    double ourBandwidth = *ours->bytesOf(MemoryLevel::Dram) / (static_cast<double>(ours->durationNs) * 1e-9);
    EXPECT_NEAR(ourBandwidth / ncuBandwidth, 1.0, 0.02) << kernel.name;
    EXPECT_EQ(*kernel.value(chart, "Single Precision Achieved Value", "Predicated-On FFMA Operations Per Cycle"), 0.0);
    EXPECT_EQ(assessPoint(*ours, data.roofsOf(0)).achievedFlopsPerSecond, 0.0);
  }
}

TEST_F(RooflineFixture, ReportTable) {
  auto db = openTraceFile(path_);
  auto data = loadRoofline(db, RooflineGrouping::Name);
  auto table = rooflinePointsTable(data, RooflineGrouping::Name);
  EXPECT_EQ(table.name, "roofline_name");
  ASSERT_EQ(table.rows.size(), 3u);
  auto csv = formatCsv(table);
  EXPECT_NE(csv.find("\"saxpy(float *, const float *, float, int)\",0,2,286432,,134217728,,,774569984,"),
            std::string::npos)
      << csv;
  auto roofs = formatCsv(rooflineRoofsTable(data.roofs));
  EXPECT_NE(roofs.find("0,NVIDIA H100 80GB HBM3,Hopper (sm_90),33454.1,66908.2,133816.3,1070530.6,3352.3,,33454.1"),
            std::string::npos)
      << roofs;
}

TEST(Roofline, FileWithoutMetricsSaysWhatToDo) {
  auto db = openTraceFile(kFixtures + "/nsys/transpose.sqlite");
  EXPECT_THROW(loadRoofline(db, RooflineGrouping::Name), TraceError);
}

}  // namespace
}  // namespace gpuscope
