// Golden tests: our stats reports on the real nsys exports against the CSVs `nsys stats` printed for them.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/model/trace_file.h"
#include "core/report/report_format.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"
#include "tests/core/stats/csv_text.h"
#include "tests/core/testing/gz_fixture.h"
#include "tests/core/testing/metrics_fixtures.h"

namespace gpuscope {
namespace {

struct Golden {
  std::string trace;   // fixture name: nsys/<trace>.sqlite, or classes/<trace>/nsys.sqlite.gz for a class fixture
  std::string report;  // nsys report name
  bool classFixture = false;
  bool metricsFixture = false;  // nsys-gpu-metrics/<trace>.sqlite.gz
};

std::string nsysDir() { return std::string(GPUSCOPE_FIXTURES) + "/nsys/"; }
std::string classDir(const std::string& trace) { return std::string(GPUSCOPE_FIXTURES) + "/classes/" + trace + "/"; }

std::string tracePath(const Golden& golden) {
  if (golden.metricsFixture) return testing::gpuMetricsFixture(golden.trace);
  return golden.classFixture ? testing::classFixture(golden.trace, "nsys") : nsysDir() + golden.trace + ".sqlite";
}

std::string expectedCsvPath(const Golden& golden) {
  if (golden.metricsFixture)
    return std::string(GPUSCOPE_FIXTURES) + "/nsys-gpu-metrics/" + golden.trace + "_stats_" + golden.report + ".csv";
  return golden.classFixture ? classDir(golden.trace) + "nsys_stats_" + golden.report + ".csv"
                             : nsysDir() + golden.trace + "_stats_" + golden.report + ".csv";
}

void PrintTo(const Golden& golden, std::ostream* out) { *out << golden.trace << "/" << golden.report; }

class StatsGolden : public ::testing::TestWithParam<Golden> {};

TEST_P(StatsGolden, CsvEqualsNsys) {
  auto expectedPath = expectedCsvPath(GetParam());
  ASSERT_TRUE(std::filesystem::exists(expectedPath)) << expectedPath;
  auto expectedText = test::readFile(expectedPath);
  auto db = openTraceFile(tracePath(GetParam()));
  if (expectedText.empty()) {
    // nsys skipped the report (the file has no table for it): so must we, with a sentence saying why.
    EXPECT_THROW(runStatsReport(db, GetParam().report), ReportUnavailable);
    return;
  }
  auto actualText = formatCsv(runStatsReport(db, GetParam().report));

  auto expected = test::parseCsv(expectedText);
  auto actual = test::parseCsv(actualText);
  ASSERT_EQ(actual.size(), expected.size()) << "row count differs:\n" << actualText;
  for (size_t r = 0; r < expected.size(); ++r) {
    ASSERT_EQ(actual[r].size(), expected[r].size()) << "field count differs in row " << r;
    for (size_t c = 0; c < expected[r].size(); ++c)
      EXPECT_EQ(actual[r][c], expected[r][c]) << "row " << r << ", column " << expected[0][c];
  }
  // Field by field equal is not enough: quoting and line ends must match byte for byte too.
  EXPECT_EQ(actualText, expectedText);
}

std::vector<Golden> goldens() {
  std::vector<Golden> all;
  for (const char* report : {"cuda_api_sum", "cuda_api_trace", "cuda_gpu_kern_sum", "cuda_gpu_mem_size_sum",
                             "cuda_gpu_mem_time_sum", "cuda_gpu_trace", "cuda_kern_exec_sum", "cuda_kern_exec_trace",
                             "nvtx_gpu_proj_sum", "nvtx_kern_sum", "nvtx_sum", "osrt_sum"})
    all.push_back({"transpose", report});
  for (const char* report : {"cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_size_sum", "cuda_gpu_mem_time_sum",
                             "cuda_kern_exec_sum", "nvtx_gpu_proj_sum", "nvtx_kern_sum", "nvtx_sum", "osrt_sum"})
    all.push_back({"loader2", report});
  // The bottleneck-class programs recorded by tests/gpu/classes.sh (tests/fixtures/classes/README.md).
  for (const char* trace : {"loader0", "loader2", "fp32", "bf16", "launch", "sync", "gemm", "graph", "transpose"})
    for (const char* report : {"cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_size_sum", "cuda_gpu_mem_time_sum",
                               "cuda_kern_exec_sum", "nvtx_gpu_proj_sum", "nvtx_kern_sum", "nvtx_sum", "osrt_sum"})
      all.push_back({trace, report, true});
  // Recorded with GPU metrics and CUDA memory usage: the new tables change none of the reports.
  for (const char* trace : {"gm_transpose", "gm_loader2"})
    for (const char* report : {"cuda_gpu_kern_sum", "cuda_gpu_mem_size_sum"})
      all.push_back({trace, report, false, true});
  return all;
}

std::string goldenName(const ::testing::TestParamInfo<Golden>& golden) {
  return (golden.param.classFixture ? "class_" : "") + golden.param.trace + "_" + golden.param.report;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, StatsGolden, ::testing::ValuesIn(goldens()), goldenName);

}  // namespace
}  // namespace gpuscope
