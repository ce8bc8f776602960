// One rank out of a file of several: the two-rank DDP run (tests/fixtures/ranks) merged, then each rank copied
// out; its rows are exactly the merged file's rows of that rank, and diff between the two ranks reads them.
#include "core/ranks/rank_extract.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/diff/run_diff.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/rank_table.h"
#include "core/open/open_trace.h"
#include "core/ranks/trace_merge.h"
#include "tests/core/testing/gz_fixture.h"

namespace gpuscope {
namespace {

std::string extractTestPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / ("rank_extract_" + test + "_" + name)).string();
}

std::string mergedDdp() {
  std::vector<std::string> inputs;
  for (int rank : {0, 1}) {
    std::string name = "rank" + std::to_string(rank) + ".sqlite";
    inputs.push_back(
        testing::gunzippedFixture(std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/" + name + ".gz", "ranks_" + name));
  }
  std::string merged = extractTestPath("merged.sqlite");
  mergeTraces(inputs, merged);
  return merged;
}

int64_t count(const Database& db, const std::string& sql) {
  auto statement = db.prepare(sql);
  EXPECT_TRUE(statement.step()) << sql;
  return statement.int64(0);
}

TEST(RankExtract, EachRankKeepsExactlyItsOwnRows) {
  std::string merged = mergedDdp();
  Database all = Database::openReadOnly(merged);
  std::vector<RankRow> rows = readRankRows(all);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(ranksOf(all), (std::vector<int64_t>{0, 1}));
  int64_t kernelsInParts = 0;
  for (const RankRow& row : rows) {
    std::string part = extractTestPath("rank" + std::to_string(row.rank) + ".sqlite");
    extractRank(all, row.rank, part);
    Database one = Database::openReadOnly(part);
    std::string inRank = global_id::sqlHw("globalPid") + " BETWEEN " + std::to_string(row.hwFirst) + " AND " +
                         std::to_string(row.hwLast);
    int64_t kernels = count(one, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    EXPECT_EQ(kernels, count(all, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + inRank));
    EXPECT_EQ(kernels, 1546);  // as nsys recorded each rank (tests/fixtures/ranks/README.md)
    kernelsInParts += kernels;
    EXPECT_EQ(count(one, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE NOT (" + inRank + ")"), 0);
    std::string threadInRank = global_id::sqlHw("globalTid") + " BETWEEN " + std::to_string(row.hwFirst) + " AND " +
                               std::to_string(row.hwLast);
    EXPECT_EQ(count(one, "SELECT count(*) FROM NVTX_EVENTS"),
              count(all, "SELECT count(*) FROM NVTX_EVENTS WHERE " + threadInRank));
    EXPECT_EQ(ranksOf(one), std::vector<int64_t>{row.rank});
  }
  EXPECT_EQ(kernelsInParts, count(all, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(RankExtract, TheTwoRanksDifferInTheirAllReduceTimes) {
  std::string merged = mergedDdp();
  Database all = Database::openReadOnly(merged);
  std::string a = extractTestPath("a.sqlite"), b = extractTestPath("b.sqlite");
  extractRank(all, 0, a);
  extractRank(all, 1, b);
  RunDiff diff = diffRuns(*openTrace(a).load(), *openTrace(b).load(), DiffBy::Kernel);
  bool allReduce = false;
  for (const DiffRow& row : diff.rows) {
    if (row.name.find("AllReduce") == std::string::npos) continue;
    allReduce = true;
    EXPECT_EQ(row.a.count, row.b.count) << row.name;  // every all-reduce ran on both ranks
    EXPECT_GT(row.a.total, 5 * row.b.total) << row.name << ": rank 0 waits in it for rank 1";
  }
  EXPECT_TRUE(allReduce);
}

TEST(RankExtract, AFileWithoutRanksOrWithoutThatRankIsRefusedInOneSentence) {
  std::string merged = mergedDdp();
  Database all = Database::openReadOnly(merged);
  try {
    extractRank(all, 7, extractTestPath("seven.sqlite"));
    FAIL() << "rank 7 was extracted";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("has no rank 7; its ranks are 0, 1."), std::string::npos) << error.what();
  }
  Database plain = Database::openReadOnly(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  EXPECT_THROW(extractRank(plain, 0, extractTestPath("plain.sqlite")), TraceError);
}

}  // namespace
}  // namespace gpuscope
