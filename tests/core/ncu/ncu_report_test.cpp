#include "core/ncu/ncu_report.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "core/ncu/ncu_kernel_metrics.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;

TEST(NcuReport, LongLayoutOfTheFixture) {
  auto report = readNcuCsvFile(kFixtures + "/nsys/transpose_ncu_metrics.csv");
  EXPECT_EQ(report.layout, NcuLayout::Long);
  ASSERT_EQ(report.kernels.size(), 6u);
  const std::vector<std::string> names = {"transposeNaive(float *, const float *, int, int)",
                                          "transposeShared(float *, const float *, int, int)",
                                          "saxpy(float *, const float *, float, int)"};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(report.kernels[i].id, static_cast<int64_t>(i));
    EXPECT_EQ(report.kernels[i].name, names[i % 3]);
    EXPECT_EQ(report.kernels[i].pid, 770);
    EXPECT_EQ(report.kernels[i].metrics.size(), 10u);
  }
  EXPECT_EQ(report.kernels[0].stream, "13");
  EXPECT_EQ(report.kernels[2].stream, "14");
  EXPECT_EQ(report.kernels[0].value("dram__bytes.sum"), 313716480.0);
  EXPECT_EQ(report.kernels[0].value("gpu__time_duration.sum"), 635968.0);
  EXPECT_EQ(report.kernels[5].value("lts__t_bytes.sum"), 607952672.0);
  EXPECT_DOUBLE_EQ(*report.kernels[3].value("sm__cycles_elapsed.avg.per_second"), 1979341873.15);
}

TEST(NcuReport, FlopsAndBytesOfTheFixture) {
  auto report = readNcuCsvFile(kFixtures + "/nsys/transpose_ncu_metrics.csv");
  // transpose.cu: saxpy over n = 8192 x 4096 elements, one FFMA (2 FLOPs) each; the transposes do no math.
  const double n = 8192.0 * 4096.0;
  for (const auto& kernel : report.kernels) {
    auto metrics = kernelMetricsFromNcu(kernel);
    bool saxpy = kernel.name.rfind("saxpy", 0) == 0;
    ASSERT_TRUE(metrics.flopsOf(Precision::Fp32));
    EXPECT_EQ(*metrics.flopsOf(Precision::Fp32), saxpy ? 2 * n : 0.0) << kernel.name;
    EXPECT_FALSE(metrics.flopsOf(Precision::Fp64));  // dadd/dmul/dfma were not collected
    EXPECT_FALSE(metrics.flopsOf(Precision::Fp16));
    EXPECT_FALSE(metrics.flopsOf(Precision::Tensor));
    EXPECT_EQ(metrics.bytesOf(MemoryLevel::Dram), kernel.value("dram__bytes.sum"));
    EXPECT_EQ(metrics.bytesOf(MemoryLevel::L2), kernel.value("lts__t_bytes.sum"));
    EXPECT_EQ(metrics.bytesOf(MemoryLevel::L1), kernel.value("l1tex__t_bytes.sum"));
    EXPECT_EQ(metrics.durationNs, static_cast<int64_t>(*kernel.value("gpu__time_duration.sum")));
    EXPECT_EQ(metrics.sourceId, kernel.id);
  }
  auto saxpy = kernelMetricsFromNcu(report.kernels[2]);
  EXPECT_EQ(*saxpy.bytesOf(MemoryLevel::Dram), 387198208.0);
  EXPECT_EQ(*saxpy.durationNs, 143744);
}

TEST(NcuReport, SectionLayoutKeepsSectionsAndLabels) {
  auto report = readNcuCsvFile(kFixtures + "/nsys/transpose_ncu_roofline.csv");
  EXPECT_EQ(report.layout, NcuLayout::Long);
  ASSERT_EQ(report.kernels.size(), 4u);
  const auto& naive = report.kernels[0];
  EXPECT_EQ(naive.value("GPU Speed Of Light Roofline Chart", "Single Precision Roofline",
                        "Theoretical DRAM Bytes Accessible"),
            1280.0);
  EXPECT_EQ(naive.value("GPU Speed Of Light Throughput", "", "Duration"), 639328.0);
  // Rule rows (no metric name) are not metrics.
  for (const auto& metric : naive.metrics) EXPECT_FALSE(metric.name.empty());
}

TEST(NcuReport, RawLayoutWithUnitsRow) {
  std::string text =
      "==PROF== Connected to process 12 (/tmp/app)\n"
      "result: 1, 2, \"3\n"
      "==PROF== Disconnected from process 12\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\","
      "\"sm__ops_path_tensor_src_fp16_dst_fp32.sum\",\"sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum\","
      "\"sm__cycles_elapsed.avg.per_second\",\"launch__grid_size\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"usecond\",\"inst\",\"Kinst\",\"\",\"\","
      "\"cycle/nsecond\",\"\"\n"
      "\"0\",\"12\",\"app\",\"h\",\"gemm(double *, int)\",\"1\",\"7\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\","
      "\"1.50\",\"2.25\",\"1,000\",\"2\",\"4,096\",\"4,096\",\"1.98\",\"4\"\n"
      "\"1\",\"12\",\"app\",\"h\",\"other\",\"1\",\"7\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\","
      "\"n/a\",\"1\",\"\",\"\",\"\",\"\",\"1.98\",\"4\"\n";
  auto report = parseNcuCsv(text);
  EXPECT_EQ(report.layout, NcuLayout::Raw);
  ASSERT_EQ(report.kernels.size(), 2u);
  const auto& gemm = report.kernels[0];
  EXPECT_EQ(gemm.name, "gemm(double *, int)");
  EXPECT_EQ(gemm.stream, "7");
  EXPECT_DOUBLE_EQ(*gemm.value("dram__bytes.sum"), 1.5e6);
  EXPECT_DOUBLE_EQ(*gemm.value("gpu__time_duration.sum"), 2250.0);
  EXPECT_DOUBLE_EQ(*gemm.value("sm__cycles_elapsed.avg.per_second"), 1.98e9);
  auto metrics = kernelMetricsFromNcu(gemm);
  EXPECT_EQ(metrics.flopsOf(Precision::Fp64), 2000.0);    // 2 x DFMA, no add/mul collected
  EXPECT_EQ(metrics.flopsOf(Precision::Fp16), 4000.0);    // 2 x 2 Kinst HFMA
  EXPECT_EQ(metrics.flopsOf(Precision::Tensor), 4096.0);  // the sparsity split is not added again
  EXPECT_FALSE(metrics.flopsOf(Precision::Fp32));
  EXPECT_EQ(metrics.durationNs, 2250);
  auto other = kernelMetricsFromNcu(report.kernels[1]);
  EXPECT_FALSE(other.bytesOf(MemoryLevel::Dram));  // n/a
  EXPECT_FALSE(other.flopsOf(Precision::Fp64));    // empty cells
}

// Real `ncu --csv --page raw` output (Nsight Compute 2025.3, H100, tests/fixtures/workloads/transpose.cu, every
// FLOP counter of the three precisions): 325 columns, a units row, thousands separators.
TEST(NcuReport, RawLayoutFromNcu) {
  auto report =
      readNcuCsvFile((std::filesystem::path(__FILE__).parent_path() / "data" / "transpose_ncu_raw.csv").string());
  EXPECT_EQ(report.layout, NcuLayout::Raw);
  ASSERT_EQ(report.kernels.size(), 6u);
  const double n = 8192.0 * 4096.0;
  for (const auto& kernel : report.kernels) {
    auto metrics = kernelMetricsFromNcu(kernel);
    bool saxpy = kernel.name == "saxpy(float *, const float *, float, int)";
    EXPECT_EQ(metrics.flopsOf(Precision::Fp32), saxpy ? 2 * n : 0.0) << kernel.name;
    EXPECT_EQ(metrics.flopsOf(Precision::Fp64), 0.0);  // collected, and zero
    EXPECT_EQ(metrics.flopsOf(Precision::Fp16), 0.0);
    EXPECT_TRUE(metrics.bytesOf(MemoryLevel::Dram));
    EXPECT_EQ(metrics.bytesOf(MemoryLevel::L1), saxpy                                         ? 402653184.0
                                                : kernel.name.rfind("transposeNaive", 0) == 0 ? 1207959552.0
                                                                                              : 268435456.0);
  }
  EXPECT_EQ(report.kernels[0].name, "transposeNaive(float *, const float *, int, int)");
  EXPECT_EQ(report.kernels[0].value("gpu__time_duration.sum"), 642560.0);
  EXPECT_EQ(report.kernels[0].value("dram__bytes.sum"), 313152256.0);
  EXPECT_EQ(report.kernels[2].stream, "14");
  EXPECT_EQ(report.kernels[0].value("device__attribute_display_name"), std::nullopt);  // text, not a number
}

TEST(NcuReport, UnitScales) {
  EXPECT_EQ(ncuUnitScale("byte"), 1.0);
  EXPECT_EQ(ncuUnitScale("Kbyte"), 1e3);
  EXPECT_EQ(ncuUnitScale("Gbyte"), 1e9);
  EXPECT_EQ(ncuUnitScale("KiB"), 1.0);  // not a unit ncu prints: left alone
  EXPECT_EQ(ncuUnitScale("Mibyte"), 1024.0 * 1024.0);
  EXPECT_EQ(ncuUnitScale("ns"), 1.0);
  EXPECT_EQ(ncuUnitScale("msecond"), 1e6);
  EXPECT_EQ(ncuUnitScale("Tbyte/second"), 1e12);
  EXPECT_EQ(ncuUnitScale("byte/nsecond"), 1e9);
  EXPECT_EQ(ncuUnitScale("Ghz"), 1e9);
  EXPECT_EQ(ncuUnitScale("%"), 1.0);
}

TEST(NcuReport, TextWithoutATableIsAUserError) {
  EXPECT_THROW(parseNcuCsv("==PROF== Connected\nhello\n"), TraceError);
  EXPECT_THROW(readNcuCsvFile(kFixtures + "/no_such_report.csv"), TraceError);
}

}  // namespace
}  // namespace gpuscope
