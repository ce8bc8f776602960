// The findings GPU metrics and memory usage add: a GPU busy but mostly empty, device memory near its total, and
// FP32 GEMMs confirmed (or cleared) by sampled Tensor Active.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/analysis/rule_registry.h"
#include "core/db/sqlite_database.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/schema/table_names.h"
#include "tests/core/testing/metric_trace.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

constexpr TimeNs kFindMs = 1'000'000;

Finding findingOf(const std::string& path, const std::string& rule) {
  Database db = Database::openReadOnly(path);
  return runAnalysis(db, {parseRuleRequest(rule)}).at(0);
}

// 100 ms with kernels running 60% of it (6 ms of every 10 ms), SMs Active SMS while they run.
std::string busyTrace(const std::string& name, int64_t sms, std::string_view kernel = "tiny_kernel",
                      int64_t tensor = 0) {
  std::string path = testing::processTempPath("counter_findings", name + ".sqlite");
  std::vector<testing::SyntheticKernel> kernels;
  for (TimeNs t = 0; t < 100 * kFindMs; t += 10 * kFindMs) kernels.push_back({t + 1, t + 6 * kFindMs, kernel});
  // A sample covers [t, t + 1 ms): kernels run through it when it starts in the first 6 ms of each 10.
  auto running = [](TimeNs t) { return t % (10 * kFindMs) < 6 * kFindMs; };
  testing::writeMetricTrace(path, kernels,
                            {{gpu_metric::kSmsActive, [=](TimeNs t) { return running(t) ? sms : 0; }},
                             {gpu_metric::kTensorActive, [=](TimeNs t) { return running(t) ? tensor : 0; }}},
                            100 * kFindMs, kFindMs);
  return path;
}

TEST(GpuMostlyEmpty, KernelsRunningOnFewSmsAreFound) {
  std::string path = busyTrace("empty", 6);
  Finding finding = findingOf(path, "gpu_mostly_empty");
  EXPECT_TRUE(finding.found());
  EXPECT_NE(finding.explanation.find("SMs Active averaged only 6.0%"), std::string::npos) << finding.explanation;
  EXPECT_NE(finding.explanation.find("GPU metrics sampled at 1 kHz"), std::string::npos) << finding.explanation;
  ASSERT_EQ(finding.evidence.rows.size(), 1u);
  std::filesystem::remove(path);
}

TEST(GpuMostlyEmpty, KernelsFillingTheSmsAreNot) {
  std::string path = busyTrace("full", 90);
  EXPECT_FALSE(findingOf(path, "gpu_mostly_empty").found());
  std::filesystem::remove(path);
}

TEST(GpuMostlyEmpty, AFileWithoutMetricsFindsNothing) {
  EXPECT_FALSE(findingOf(testing::fixturePath("nsys/transpose.sqlite"), "gpu_mostly_empty").found());
}

// loader.py 2 is CPU starved: its kernels run too little of the time for the GPU to count as busy.
TEST(GpuMostlyEmpty, NsysLoaderIsNotBusyEnough) {
  EXPECT_FALSE(findingOf(testing::gpuMetricsFixture("gm_loader2"), "gpu_mostly_empty").found());
}

std::string memoryTrace(const std::string& name, int64_t total, std::initializer_list<int64_t> allocations) {
  std::string path = testing::processTempPath("counter_findings", name + ".sqlite");
  TraceWriter writer(path);
  GpuInfoRow gpu;
  gpu.id = 0;
  gpu.name = "test GPU";
  gpu.totalMemory = total;
  writer.addGpu(gpu);
  int rows = writer.tableRows(table::kGpuMemoryUsage, {"start", "globalPid", "deviceId", "contextId", "address", "pc",
                                                       "bytes", "memKind", "memoryOperationType"});
  int64_t address = 0x1000, time = 100;
  for (int64_t bytes : allocations)
    writer.addRow(rows, {time++, int64_t{0x0A000000}, int64_t{0}, int64_t{1}, address++, int64_t{0}, bytes, int64_t{2},
                         int64_t{0}});
  writer.finish();
  return path;
}

TEST(DeviceMemoryPeak, APeakWithinTenPercentOfTheTotalIsFound) {
  std::string path = memoryTrace("near", 1000, {500, 300, 150});
  Finding finding = findingOf(path, "device_memory_peak");
  ASSERT_TRUE(finding.found());
  EXPECT_EQ(std::get<int64_t>(finding.evidence.rows[0][1]), 950);
  EXPECT_NE(finding.explanation.find("Device memory peaked at 950 B of 1000 B (95.0%)"), std::string::npos)
      << finding.explanation;
  std::filesystem::remove(path);
}

TEST(DeviceMemoryPeak, APeakFarBelowTheTotalIsNot) {
  std::string path = memoryTrace("far", 1000, {500, 300});
  EXPECT_FALSE(findingOf(path, "device_memory_peak").found());
  std::filesystem::remove(path);
  EXPECT_FALSE(findingOf(testing::gpuMetricsFixture("gm_transpose"), "device_memory_peak").found());
}

// An SGEMM-named kernel with Tensor Active 0 inside it: the name and the counters both say FP32.
TEST(Fp32GemmCounters, IdleTensorCoresConfirmAnFp32Gemm) {
  std::string path = busyTrace("sgemm", 90, "ampere_sgemm_128x64_nn", 0);
  Finding finding = findingOf(path, "fp32_gemm");
  ASSERT_TRUE(finding.found());
  EXPECT_EQ(std::get<std::string>(finding.evidence.rows[0][3]),
            "name: FP32 (FFMA) GEMM; counters: Tensor Active 0.0% (GPU metrics)");
  std::filesystem::remove(path);
}

// The same name with busy tensor cores inside it: the counters clear what the name suggested.
TEST(Fp32GemmCounters, BusyTensorCoresClearAnFp32Name) {
  std::string path = busyTrace("sgemm_tensor", 90, "ampere_sgemm_128x64_nn", 60);
  EXPECT_FALSE(findingOf(path, "fp32_gemm").found());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
