// `gpuscope diff` as a user runs it: the real executable on the transpose fixture and a modified copy.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "process_runner.h"

namespace {

namespace fs = std::filesystem;

using gpuscope::test::nsysFixture;
using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

// transpose.sqlite with saxpy removed, every transposeNaive 100 ns longer, and one new kernel "addedKernel"
// of 5000 ns after the last one.
std::string modifiedTranspose() {
  auto path = testTempPath("diff_cli", "modified.sqlite");
  fs::copy_file(nsysFixture("transpose.sqlite"), path, fs::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const char* sql =
      "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = (SELECT id FROM StringIds WHERE value = 'saxpy');"
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + 100 "
      "  WHERE shortName = (SELECT id FROM StringIds WHERE value = 'transposeNaive');"
      "INSERT INTO StringIds (id, value) SELECT max(id) + 1, 'addedKernel' FROM StringIds;"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, "
      "  correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, "
      "  registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
      "  localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) "
      "SELECT m + 1000, m + 6000, deviceId, contextId, greenContextId, streamId, correlationId + 1000000, globalPid, "
      "  n, n, NULL, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
      "  staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, "
      "  sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig "
      "FROM CUPTI_ACTIVITY_KIND_KERNEL, (SELECT max(end) AS m FROM CUPTI_ACTIVITY_KIND_KERNEL), "
      "  (SELECT id AS n FROM StringIds WHERE value = 'addedKernel') "
      "WHERE CUPTI_ACTIVITY_KIND_KERNEL.rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);";
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
  return path;
}

TEST(DiffCli, FixtureAgainstItselfHasZeroDeltas) {
  auto run = runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' '" + nsysFixture("transpose.sqlite") +
                         "' --format csv");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto rows = parseCsv(run.out);
  ASSERT_EQ(rows.size(), 4u) << run.out;  // header and three kernels
  EXPECT_EQ(rows[0][0], "Kernel");
  EXPECT_EQ(rows[0][6], "Delta Total (ns)");
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 11u) << run.out;
    EXPECT_EQ(rows[i][1], "both");
    EXPECT_EQ(rows[i][2], "10");
    EXPECT_EQ(rows[i][3], "10");
    EXPECT_EQ(rows[i][4], rows[i][5]);
    EXPECT_EQ(rows[i][6], "0");
    EXPECT_EQ(rows[i][7], "0.0");
    EXPECT_EQ(rows[i][10], "0.0");
  }
}

TEST(DiffCli, NvtxAgainstItselfHasZeroDeltas) {
  auto run = runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' '" + nsysFixture("transpose.sqlite") +
                         "' --by nvtx --format json");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["by"], "nvtx");
  ASSERT_FALSE(json["diff"]["rows"].empty());
  for (const auto& row : json["diff"]["rows"]) {
    EXPECT_EQ(row["Delta Total (ns)"], 0);
    EXPECT_EQ(row["Status"], "both");
  }
  ASSERT_FALSE(json["summary"]["rows"].empty());
  for (const auto& row : json["summary"]["rows"]) EXPECT_EQ(row["Delta"], 0) << row["Metric"];
}

TEST(DiffCli, ModifiedCopyGivesRemovedSlowerAndAddedKernels) {
  auto modified = modifiedTranspose();
  auto run = runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' '" + modified + "' --format csv");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto rows = parseCsv(run.out);
  ASSERT_EQ(rows.size(), 5u) << run.out;
  // saxpy is gone (its 10 instances took 1549566 ns), addedKernel is new (5000 ns), transposeNaive is
  // 10 x 100 ns slower, transposeShared is unchanged.
  EXPECT_EQ(rows[1], (std::vector<std::string>{"saxpy", "only A", "10", "0", "1549566", "0", "-1549566", "-100.0",
                                               "154956.6", "", ""}));
  EXPECT_EQ(rows[2],
            (std::vector<std::string>{"addedKernel", "only B", "0", "1", "0", "5000", "5000", "", "", "5000.0", ""}));
  EXPECT_EQ(rows[3][0], "transposeNaive");
  EXPECT_EQ(rows[3][1], "both");
  EXPECT_EQ(rows[3][4], "6558882");
  EXPECT_EQ(rows[3][5], "6559882");
  EXPECT_EQ(rows[3][6], "1000");
  EXPECT_EQ(rows[3][10], "100.0");
  EXPECT_EQ(rows[4][0], "transposeShared");
  EXPECT_EQ(rows[4][6], "0");
}

TEST(DiffCli, TableFormatShowsSummaryAndRows) {
  auto modified = modifiedTranspose();
  auto run = runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' '" + modified + "'");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("Run summary, B vs A"), std::string::npos);
  EXPECT_NE(run.out.find("Memcpy bytes"), std::string::npos);
  EXPECT_NE(run.out.find("301,989,888"), std::string::npos);  // the three copies, in both runs
  EXPECT_NE(run.out.find("only B"), std::string::npos);
  EXPECT_LT(run.out.find("saxpy"), run.out.find("transposeNaive"));
}

TEST(DiffCli, DemangledNamesAgainstItselfMatchTheKernelSummary) {
  auto run = runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' '" + nsysFixture("transpose.sqlite") +
                         "' --by demangled --format json");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto rows = nlohmann::json::parse(run.out)["diff"]["rows"];
  ASSERT_EQ(rows.size(), 3u);
  // The names and totals of nsys's cuda_gpu_kern_sum for this file, largest first.
  EXPECT_EQ(rows[0]["Kernel"], "transposeNaive(float *, const float *, int, int)");
  EXPECT_EQ(rows[0]["Total A (ns)"], 6558882);
  EXPECT_EQ(rows[1]["Kernel"], "saxpy(float *, const float *, float, int)");
  EXPECT_EQ(rows[1]["Total B (ns)"], 1549566);
  EXPECT_EQ(rows[2]["Kernel"], "transposeShared(float *, const float *, int, int)");
  for (const auto& row : rows) EXPECT_EQ(row["Delta Total (ns)"], 0);
}

TEST(DiffCli, BadInputIsOneSentenceAndNonZeroExit) {
  auto missing = runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' /nonexistent/b.sqlite");
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_TRUE(missing.out.empty());
  EXPECT_NE(missing.err.find("gpuscope: "), std::string::npos);
  auto badFlag =
      runGpuscope("diff '" + nsysFixture("transpose.sqlite") + "' '" + nsysFixture("transpose.sqlite") + "' --by x");
  EXPECT_EQ(badFlag.exitCode, 2);
}

}  // namespace
