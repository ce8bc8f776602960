// `gpuscope stats` as a user runs it: the real executable on the fixtures, through a shell.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"
#include "process_runner.h"

namespace {

using gpuscope::test::lineCount;
using gpuscope::test::nsysFixture;
using gpuscope::test::readWholeFile;
using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

// A trace with CUDA API calls but no OS runtime, NVTX or GPU tables.
std::string apiOnlyTrace() {
  auto path = testTempPath("stats_cli", "api_only.sqlite");
  auto db = gpuscope::Database::create(path);
  db.exec(gpuscope::createTableSql(gpuscope::tableSpec(gpuscope::table::kStringIds)));
  db.exec(gpuscope::createTableSql(gpuscope::tableSpec(gpuscope::table::kRuntime)));
  db.exec("INSERT INTO StringIds VALUES (1, 'cudaMalloc_v3020')");
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, "
      "returnValue) VALUES (10, 30, 0, 16777217, 1, 1, 0)");
  return path;
}

TEST(StatsCli, CsvOfOneReportIsNsysCsv) {
  auto run = runGpuscope("stats '" + nsysFixture("transpose.sqlite") + "' --report cuda_gpu_kern_sum --format csv");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, readWholeFile(nsysFixture("transpose_stats_cuda_gpu_kern_sum.csv")));
  EXPECT_EQ(run.err, "");
}

TEST(StatsCli, DefaultSetRunsTheSixNsysReports) {
  auto run = runGpuscope("stats '" + nsysFixture("transpose.sqlite") + "' --format csv");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  std::string expected;
  for (const char* report :
       {"cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "nvtx_sum", "osrt_sum"})
    expected +=
        (expected.empty() ? "" : "\n") + readWholeFile(nsysFixture(std::string("transpose_stats_") + report + ".csv"));
  EXPECT_EQ(run.out, expected);
}

TEST(StatsCli, JsonHasNumbersAsNumbers) {
  auto run = runGpuscope("stats '" + nsysFixture("transpose.sqlite") + "' -r cuda_gpu_mem_size_sum,nvtx_sum -f json");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  ASSERT_TRUE(json.contains("cuda_gpu_mem_size_sum"));
  ASSERT_TRUE(json.contains("nvtx_sum"));
  const auto& first = json["cuda_gpu_mem_size_sum"]["rows"][0];
  EXPECT_EQ(first["Operation"], "[CUDA memcpy Device-to-Host]");
  EXPECT_EQ(first["Total (MB)"].get<double>(), 167.772);
  EXPECT_EQ(first["Count"].get<int64_t>(), 2);
  EXPECT_EQ(json["nvtx_sum"]["rows"][0]["Range"], ":upload");
  EXPECT_EQ(json["nvtx_sum"]["rows"][0]["Total Time (ns)"].get<int64_t>(), 19568496);
}

TEST(StatsCli, TableIsAlignedWithTitles) {
  auto run = runGpuscope("stats '" + nsysFixture("transpose.sqlite") + "' --report cuda_gpu_kern_sum");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out.rfind(" ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n\n Time (%)", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("     72.0        6,558,882         10  655,888.2"), std::string::npos) << run.out;
  EXPECT_EQ(lineCount(run.out), 7u) << run.out;  // title, blank, header, rule, three kernels
}

TEST(StatsCli, UnknownReportFailsWithOneLine) {
  auto run = runGpuscope("stats '" + nsysFixture("transpose.sqlite") + "' --report cuda_api_sum,no_such_report");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("no_such_report"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("cuda_gpu_trace"), std::string::npos) << run.err;
}

TEST(StatsCli, OutputPrefixWritesOneFilePerReport) {
  auto dir = std::filesystem::path(testTempPath("stats_cli", "out"));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto prefix = (dir / "run").string();
  auto run = runGpuscope("stats '" + nsysFixture("loader2.sqlite") + "' -r nvtx_gpu_proj_sum -r osrt_sum -f csv -o '" +
                         prefix + "'");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(readWholeFile(prefix + "_nvtx_gpu_proj_sum.csv"),
            readWholeFile(nsysFixture("loader2_stats_nvtx_gpu_proj_sum.csv")));
  EXPECT_EQ(readWholeFile(prefix + "_osrt_sum.csv"), readWholeFile(nsysFixture("loader2_stats_osrt_sum.csv")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 2);
  EXPECT_NE(run.out.find(prefix + "_osrt_sum.csv"), std::string::npos) << run.out;
}

TEST(StatsCli, OutputIntoAMissingFolderFailsWithOneLine) {
  auto run = runGpuscope("stats '" + nsysFixture("transpose.sqlite") + "' -r nvtx_sum -o '" +
                         testTempPath("stats_cli", "no/such/folder/run") + "'");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
}

TEST(StatsCli, ReportsWhoseTablesAreMissingAreSkippedWithANote) {
  auto trace = apiOnlyTrace();
  auto run = runGpuscope("stats '" + trace + "' -f csv");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out.rfind("Time (%),Total Time (ns),Num Calls", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("100.0,20,1,20.0,20.0,20,20,0.0,cudaMalloc\n"), std::string::npos) << run.out;
  EXPECT_EQ(lineCount(run.err), 5u) << run.err;  // five default reports have no table here
  EXPECT_NE(run.err.find("skipped osrt_sum: This file has no OSRT_API table"), std::string::npos) << run.err;
}

TEST(StatsCli, ASingleReportWithoutItsTableFails) {
  auto run = runGpuscope("stats '" + apiOnlyTrace() + "' --report cuda_gpu_trace");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos) << run.err;
}

}  // namespace
