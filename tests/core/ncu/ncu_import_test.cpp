#include "core/ncu/ncu_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/trace_file.h"
#include "core/ncu/ncu_report.h"
#include "core/roofline/kernel_metrics_table.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;
using testing::processTempPath;
const std::string kTrace = kFixtures + "/nsys/transpose.sqlite";
const std::string kNcu = kFixtures + "/nsys/transpose_ncu_metrics.csv";

TEST(NcuImport, TraceLaunchesAreInApiCallOrder) {
  auto db = openTraceFile(kTrace);
  auto launches = readTraceKernelLaunches(db);
  ASSERT_EQ(launches.size(), 30u);
  EXPECT_EQ(launches[0].correlationId, 128u);
  EXPECT_EQ(launches[0].shortName, "transposeNaive");
  EXPECT_EQ(launches[0].demangledName, "transposeNaive(float *, const float *, int, int)");
  EXPECT_EQ(launches[0].mangledName, "_Z14transposeNaivePfPKfii");
  EXPECT_TRUE(std::is_sorted(launches.begin(), launches.end(),
                             [](const auto& a, const auto& b) { return a.launchTime < b.launchTime; }));
}

TEST(NcuImport, FixtureMatchesByNameAndLaunchOrder) {
  auto db = openTraceFile(kTrace);
  auto match = matchNcuKernels(readNcuCsvFile(kNcu), readTraceKernelLaunches(db), "test");
  EXPECT_EQ(match.ncuKernels, 6u);
  EXPECT_FALSE(match.matchedByProcess);  // ncu ran the program again: pid 770, the trace's is 469
  EXPECT_TRUE(match.unknownNames.empty());
  EXPECT_EQ(match.beyondTrace, 0u);
  // The 2nd saxpy ran first on the GPU (stream 13) but was launched after the 1st (stream 14): launch order
  // keeps every ncu stream equal to the trace's.
  EXPECT_EQ(match.streamMismatches, 0u);
  ASSERT_EQ(match.rows.size(), 6u);
  std::vector<uint32_t> correlations;
  for (const auto& row : match.rows) correlations.push_back(row.correlationId);
  EXPECT_EQ(correlations, (std::vector<uint32_t>{128, 131, 134, 136, 138, 140}));
  EXPECT_EQ(match.rows[2].kernelName, "saxpy(float *, const float *, float, int)");
  EXPECT_EQ(match.rows[2].globalPid, 281482845224960);
  EXPECT_EQ(match.rows[2].bytesOf(MemoryLevel::Dram), 387198208.0);
}

TEST(NcuImport, RawLayoutMatchesTheSameWay) {
  auto db = openTraceFile(kTrace);
  auto match = matchNcuKernels(
      readNcuCsvFile((std::filesystem::path(__FILE__).parent_path() / "data" / "transpose_ncu_raw.csv").string()),
      readTraceKernelLaunches(db), "test");
  ASSERT_EQ(match.rows.size(), 6u);
  EXPECT_EQ(match.streamMismatches, 0u);
  EXPECT_EQ(match.rows[5].correlationId, 140u);
  EXPECT_EQ(match.rows[5].flopsOf(Precision::Fp32), 2.0 * 8192 * 4096);
}

TEST(NcuImport, ShortNamesAndUnknownKernels) {
  NcuReport report;
  for (int i = 0; i < 3; ++i) {
    NcuKernel kernel;
    kernel.id = i;
    kernel.name = i == 1 ? "notInTrace" : "saxpy";
    kernel.metrics.push_back({"", "", "dram__bytes.sum", "byte", 100.0 * i});
    report.kernels.push_back(kernel);
  }
  auto db = openTraceFile(kTrace);
  auto launches = readTraceKernelLaunches(db);
  auto match = matchNcuKernels(report, launches, "test");
  ASSERT_EQ(match.rows.size(), 2u);
  EXPECT_EQ(match.rows[0].correlationId, 134u);
  EXPECT_EQ(match.rows[1].correlationId, 140u);
  EXPECT_EQ(match.unknownNames, std::vector<std::string>{"notInTrace"});
  // More launches than the trace has.
  launches.erase(std::remove_if(launches.begin(), launches.end(),
                                [](const auto& l) { return l.shortName == "saxpy" && l.correlationId != 134; }),
                 launches.end());
  EXPECT_EQ(matchNcuKernels(report, launches, "test").beyondTrace, 1u);
}

TEST(NcuImport, CountsLaunchesPerProcessWhenThePidsAreTheTraces) {
  // Two processes of the trace (pids 10 and 20) each launch "k" twice.
  std::vector<TraceKernelLaunch> trace;
  uint32_t correlation = 1;
  for (uint32_t pid : {10u, 20u, 10u, 20u}) {
    TraceKernelLaunch launch;
    launch.globalPid = global_id::make(0, 1, pid, 0);
    launch.correlationId = correlation++;
    launch.launchTime = correlation;
    launch.shortName = "k";
    launch.demangledName = "k()";
    trace.push_back(launch);
  }
  NcuReport report;
  for (int64_t pid : {20, 20, 10}) {
    NcuKernel kernel;
    kernel.id = static_cast<int64_t>(report.kernels.size());
    kernel.pid = pid;
    kernel.name = "k()";
    report.kernels.push_back(kernel);
  }
  auto match = matchNcuKernels(report, trace, "test");
  EXPECT_TRUE(match.matchedByProcess);
  ASSERT_EQ(match.rows.size(), 3u);
  EXPECT_EQ(match.rows[0].correlationId, 2u);  // 1st launch of pid 20
  EXPECT_EQ(match.rows[1].correlationId, 4u);  // 2nd launch of pid 20
  EXPECT_EQ(match.rows[2].correlationId, 1u);  // 1st launch of pid 10
  // A pid the trace lacks: launches are counted across the trace.
  report.kernels[2].pid = 99;
  match = matchNcuKernels(report, trace, "test");
  EXPECT_FALSE(match.matchedByProcess);
  EXPECT_EQ(match.rows[0].correlationId, 1u);
  EXPECT_EQ(match.rows[2].correlationId, 3u);
}

TEST(NcuImport, WritesACopyAndLeavesTheInputAlone) {
  auto out = processTempPath("gpuscope_ncu", "copy.sqlite");
  auto match = importNcuMetrics({kTrace, kNcu, out, false});
  EXPECT_EQ(match.rows.size(), 6u);
  EXPECT_FALSE(openTraceFile(kTrace).hasTable(kKernelMetricsTable));
  auto db = openTraceFile(out);
  auto rows = readKernelMetrics(db);
  ASSERT_EQ(rows.size(), 6u);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.correlationId < b.correlationId; });
  EXPECT_EQ(rows[0].correlationId, 128u);
  EXPECT_EQ(rows[0].kernelName, "transposeNaive(float *, const float *, int, int)");
  EXPECT_EQ(rows[0].sourceId, 0);
  EXPECT_EQ(rows[0].durationNs, 635968);
  EXPECT_EQ(rows[0].bytesOf(MemoryLevel::Dram), 313716480.0);
  EXPECT_EQ(rows[0].bytesOf(MemoryLevel::L2), 1856730784.0);
  EXPECT_EQ(rows[0].bytesOf(MemoryLevel::L1), 1207959552.0);
  EXPECT_EQ(rows[0].flopsOf(Precision::Fp32), 0.0);
  EXPECT_FALSE(rows[0].flopsOf(Precision::Fp64));
  EXPECT_EQ(rows[2].flopsOf(Precision::Fp32), 2.0 * 8192 * 4096);
  EXPECT_EQ(rows[2].source, "ncu --csv transpose_ncu_metrics.csv");
  // Importing again (in place) replaces rows instead of adding them.
  importNcuMetrics({out, kNcu, "", true});
  EXPECT_EQ(readKernelMetrics(openTraceFile(out)).size(), 6u);
  std::filesystem::remove(out);
}

TEST(NcuImport, RefusesAmbiguousOrSelfOutput) {
  EXPECT_THROW(importNcuMetrics({kTrace, kNcu, "", false}), TraceError);
  EXPECT_THROW(importNcuMetrics({kTrace, kNcu, kTrace, false}), TraceError);
  EXPECT_THROW(importNcuMetrics({kTrace, kNcu, processTempPath("gpuscope_ncu", "x.sqlite"), true}), TraceError);
  try {
    importNcuMetrics({kTrace, kNcu, "/nonexistent-folder/out.sqlite", false});
    ADD_FAILURE() << "no error for an unwritable output";
  } catch (const TraceError& error) {
    EXPECT_EQ(std::string(error.what()),
              "Cannot write /nonexistent-folder/out.sqlite: check that its folder exists and is writable.");
  }
  EXPECT_THROW(importNcuMetrics({kTrace, kFixtures + "/nsys/transpose_stats_cuda_api_sum.csv",
                                 processTempPath("gpuscope_ncu", "y.sqlite"), false}),
               TraceError);
}

// A PyTorch trace opens through the door (so a copy with the metrics can be written from it), but its JSON
// cannot take the metrics in place: refused in one sentence, the file untouched.
TEST(NcuImport, RefusesToAddMetricsInPlaceToAPyTorchTrace) {
  const std::string kineto = kFixtures + "/kineto/loader2_kineto.json.gz";
  const auto before = std::filesystem::last_write_time(kineto);
  try {
    importNcuMetrics({kineto, kNcu, "", true});
    ADD_FAILURE() << "no error for metrics in place in a PyTorch trace";
  } catch (const TraceError& error) {
    EXPECT_EQ(std::string(error.what()), kineto +
                                             " is a PyTorch profiler trace: metrics are added in place only to an "
                                             "SQLite trace; write a copy with -o instead.");
  }
  EXPECT_EQ(std::filesystem::last_write_time(kineto), before);
}

TEST(NcuImport, NoTableMeansNoMetrics) { EXPECT_TRUE(readKernelMetrics(openTraceFile(kTrace)).empty()); }

}  // namespace
}  // namespace gpuscope
