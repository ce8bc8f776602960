// Collectives across ranks on merges of loader2.sqlite whose busiest kernel is renamed to an NCCL
// all-reduce: the residual of the merged clock, the alignment by the collectives that removes it, and the
// straggler finding naming the rank that starts them late, against SQL on the same files.
#include "core/ranks/collectives.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/analysis/finding_format.h"
#include "core/analysis/rule_registry.h"
#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/ranks/trace_merge.h"
#include "tests/core/testing/gz_fixture.h"

namespace gpuscope {
namespace {

const std::string kNcclName = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";

std::string collectivesTestPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / ("collectives_" + test + "_" + name)).string();
}

// A copy of loader2.sqlite whose most frequent kernel is an NCCL all-reduce; LATER_NS moves its session
// start (its times stay: on the merged clock its kernels move by that much), and EDIT runs on it last.
std::string rankFile(const std::string& name, int64_t laterNs, const std::string& edit = "") {
  std::string path = collectivesTestPath(name);
  std::filesystem::copy_file(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite", path,
                             std::filesystem::copy_options::overwrite_existing);
  auto db = Database::openWritable(path);
  db.exec("INSERT INTO StringIds (id, value) SELECT max(id) + 1, '" + kNcclName + "' FROM StringIds");
  db.exec("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = (SELECT id FROM StringIds WHERE value = '" + kNcclName +
          "'), demangledName = (SELECT id FROM StringIds WHERE value = '" + kNcclName +
          "') WHERE shortName = (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY shortName "
          "ORDER BY count(*) DESC, shortName LIMIT 1)");
  db.exec("UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + " + std::to_string(laterNs));
  if (!edit.empty()) db.exec(edit);
  return path;
}

const std::string kNcclKernels =
    "CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = (SELECT id FROM StringIds WHERE "
    "value = '" +
    kNcclName + "')";

int64_t sqlValue(const std::string& path, const std::string& sql) {
  auto db = Database::openReadOnly(path);
  auto row = db.prepare(sql);
  EXPECT_TRUE(row.step()) << sql;
  return row.int64(0);
}

TEST(Collectives, EachRanksCollectivesAreReadInTheOrderTheyEnd) {
  std::string merged = collectivesTestPath("merged.sqlite");
  mergeTraces({rankFile("a.sqlite", 0), rankFile("b.sqlite", 0)}, merged);
  auto ranks = readRankCollectives(Database::openReadOnly(merged));
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_EQ(ranks[0].label, "rank 0");
  EXPECT_EQ(ranks[1].label, "rank 1");
  int64_t perRank = sqlValue(merged, "SELECT count(*) FROM " + kNcclKernels) / 2;
  ASSERT_GT(perRank, 10);
  for (const auto& rank : ranks) {
    EXPECT_EQ(static_cast<int64_t>(rank.start.size()), perRank);
    EXPECT_TRUE(std::is_sorted(rank.end.begin(), rank.end.end()));
  }
  // Two copies on one clock: every collective ends at the same instant on both.
  CollectiveSpread spread = collectiveSpread(ranks);
  EXPECT_EQ(static_cast<int64_t>(spread.matched), perRank);
  EXPECT_EQ(spread.medianEndSpreadNs, 0);
  EXPECT_EQ(spread.maxEndSpreadNs, 0);
  EXPECT_EQ(spread.nameMismatches, 0u);
}

TEST(Collectives, AClockOffByMillisecondsShowsInTheResidualAndTheAlignmentRemovesIt) {
  constexpr int64_t kSkewNs = 31'700'000;  // a host clock 31.7 ms ahead, as two hosts' clocks can be
  std::string merged = collectivesTestPath("merged.sqlite");
  std::vector<std::string> inputs = {rankFile("a.sqlite", 0), rankFile("b.sqlite", kSkewNs)};
  MergeSummary plain = mergeTraces(inputs, merged);
  EXPECT_EQ(plain.collectives.medianEndSpreadNs, kSkewNs);
  EXPECT_FALSE(plain.collectivesBeforeAlignment.has_value());

  MergeOptions align;
  align.alignCollectives = true;
  MergeSummary aligned = mergeTraces(inputs, merged, align);
  ASSERT_TRUE(aligned.collectivesBeforeAlignment.has_value());
  EXPECT_EQ(aligned.collectivesBeforeAlignment->medianEndSpreadNs, kSkewNs);
  EXPECT_EQ(aligned.collectives.medianEndSpreadNs, 0);
  EXPECT_EQ(aligned.collectives.maxEndSpreadNs, 0);
  // The second rank was moved back by the skew, and GPUSCOPE_RANKS says so.
  EXPECT_EQ(aligned.inputs[1].rank.timeShiftNs, plain.inputs[1].rank.timeShiftNs - kSkewNs);
  EXPECT_EQ(sqlValue(merged, "SELECT timeShiftNs FROM GPUSCOPE_RANKS WHERE rank = 1"),
            aligned.inputs[1].rank.timeShiftNs);
}

// Rank 1 reaches every collective late: its NCCL kernels start halfway through rank 0's, and end with them.
const std::string kStartHalfwayLater =
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start + (\"end\" - start) / 2 "
    "WHERE shortName = (SELECT id FROM StringIds WHERE value = '" +
    kNcclName + "')";

TEST(Collectives, TheStragglerIsTheRankThatStartsItsCollectivesLast) {
  std::string merged = collectivesTestPath("merged.sqlite");
  std::string slow = rankFile("slow.sqlite", 0, kStartHalfwayLater);
  mergeTraces({rankFile("fast.sqlite", 0), slow}, merged);
  auto ranks = readRankCollectives(Database::openReadOnly(merged));
  auto straggler = findStraggler(ranks);
  ASSERT_TRUE(straggler.has_value());
  EXPECT_EQ(ranks[straggler->rankIndex].rank, 1);
  // Last wherever its kernel was shortened (kernels under 2 ns start together, and the first rank counts as
  // last on a tie); the wait is what was cut off them.
  int64_t shortened =
      sqlValue(rankFile("fast3.sqlite", 0), "SELECT count(*) FROM " + kNcclKernels + " AND \"end\" - start >= 2");
  EXPECT_EQ(static_cast<int64_t>(straggler->timesLast), shortened);
  int64_t originalHalves =
      sqlValue(rankFile("fast2.sqlite", 0), "SELECT sum((\"end\" - start) / 2) FROM " + kNcclKernels);
  EXPECT_EQ(straggler->othersWaitedNs, originalHalves);
  EXPECT_EQ(straggler->timesLastByRank[0] + straggler->timesLastByRank[1], straggler->matched);
}

TEST(Collectives, TheStragglerRuleNamesTheRankInItsJson) {
  std::string merged = collectivesTestPath("merged.sqlite");
  mergeTraces({rankFile("fast.sqlite", 0), rankFile("slow.sqlite", 0, kStartHalfwayLater)}, merged);
  auto db = Database::openReadOnly(merged);
  auto findings = runAnalysis(db, {parseRuleRequest("straggler")});
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_TRUE(findings[0].found()) << findings[0].explanation;
  auto json = findingJson(findings[0]);
  EXPECT_EQ(json["id"], "straggler");
  EXPECT_EQ(json["found"], true);
  EXPECT_EQ(json["evidence"]["rank"], 1);
  EXPECT_EQ(json["evidence"]["label"], "rank 1");
  EXPECT_GT(json["evidence"]["others_waited_ns"].get<int64_t>(), 0);
  EXPECT_NE(findings[0].explanation.find("rank 1 started"), std::string::npos) << findings[0].explanation;
  // Its places are the waits, longest first, on the straggler's process.
  ASSERT_FALSE(findings[0].ranges.empty());
  for (size_t i = 0; i < findings[0].ranges.size(); ++i) {
    const FindingRange& place = findings[0].ranges[i];
    EXPECT_LT(place.start, place.end);
    EXPECT_EQ(place.pid, json["evidence"]["pid"].get<uint32_t>());
    if (i > 0) {
      EXPECT_LE(place.end - place.start, findings[0].ranges[i - 1].end - findings[0].ranges[i - 1].start);
    }
  }
}

TEST(Collectives, OneRankHasNoStraggler) {
  std::string single = rankFile("single.sqlite", 0);
  auto db = Database::openReadOnly(single);
  // loader2's processes count as ranks in a file without GPUSCOPE_RANKS; keep the NCCL kernels of one only.
  auto ranks = readRankCollectives(db);
  if (ranks.size() > 1) ranks.resize(1);
  EXPECT_FALSE(findStraggler(ranks).has_value());
  EXPECT_EQ(collectiveSpread(ranks).matched, 0u);
}

// The two-rank DDP run on two H200s (tests/fixtures/ranks): rank 1 does 15 ms of host work before each
// backward, so rank 0 waits in its all-reduces. nsys recorded each rank; these are its exports.
std::string ddpRankExport(int rank) {
  std::string name = "rank" + std::to_string(rank) + ".sqlite";
  return testing::gunzippedFixture(std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/" + name + ".gz", "ranks_" + name);
}

// Rank 0's all-reduce kernel time as `nsys stats -r cuda_gpu_kern_sum` printed it for that rank.
int64_t rank0AllReduceNsFromNsys() {
  std::ifstream csv(std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/rank0_stats_cuda_gpu_kern_sum.csv");
  std::string line;
  while (std::getline(csv, line)) {
    if (line.find("ncclDevKernel_AllReduce") == std::string::npos) continue;
    size_t first = line.find(',');
    return std::stoll(line.substr(first + 1, line.find(',', first + 1) - first - 1));
  }
  ADD_FAILURE() << "no all-reduce row in rank 0's cuda_gpu_kern_sum";
  return 0;
}

TEST(Collectives, TheDdpRunsRanksLineUpAndTheSlowRankIsNamed) {
  std::string merged = collectivesTestPath("ddp.sqlite");
  MergeSummary summary = mergeTraces({ddpRankExport(0), ddpRankExport(1)}, merged);
  // 144 NCCL kernels per rank (138 all-reduces, 5 broadcasts, 1 all-gather), each the same on both ranks.
  EXPECT_EQ(summary.collectives.matched, 144u);
  EXPECT_EQ(summary.collectives.nameMismatches, 0u);
  EXPECT_LT(summary.collectives.medianEndSpreadNs, 100'000);  // the bound: 100 us
  EXPECT_GT(summary.collectives.medianEndSpreadNs, 0);

  auto db = Database::openReadOnly(merged);
  auto ranks = readRankCollectives(db);
  auto straggler = findStraggler(ranks);
  ASSERT_TRUE(straggler.has_value());
  EXPECT_EQ(ranks[straggler->rankIndex].rank, 1);
  EXPECT_GE(straggler->timesLast, 130u);
  // Rank 0 spends its all-reduces waiting for rank 1: the wait is most of what nsys counts as their time.
  int64_t allReduceNs = rank0AllReduceNsFromNsys();
  EXPECT_GT(straggler->othersWaitedNs, allReduceNs * 9 / 10);

  MergeOptions align;
  align.alignCollectives = true;
  MergeSummary aligned = mergeTraces({ddpRankExport(0), ddpRankExport(1)}, merged, align);
  EXPECT_LT(aligned.collectives.medianEndSpreadNs, summary.collectives.medianEndSpreadNs);
}

}  // namespace
}  // namespace gpuscope
