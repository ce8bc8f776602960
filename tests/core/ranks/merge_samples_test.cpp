// A merge keeps every table the schema declares: CPU samples, their callchains and OS-runtime backtraces of
// each rank, their ids moved per rank so each sample keeps its own stack; and it refuses files that are not
// one run unless forced.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/ranks/same_run_check.h"
#include "core/ranks/trace_merge.h"
#include "tests/core/testing/rank_recordings.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::RankRecording;

int64_t countOf(const Database& db, const std::string& sql) {
  auto row = db.prepare(sql);
  return row.step() ? row.int64(0) : -1;
}

// Samples of the rank whose global ids carry HW whose leaf frame is FUNCTION's.
int64_t samplesIn(const Database& db, uint32_t hw, const std::string& function) {
  return countOf(db,
                 "SELECT count(*) FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id AND c.stackDepth "
                 "= 0 JOIN StringIds s ON s.id = c.symbol WHERE (e.globalTid >> 56) = " +
                     std::to_string(hw) + " AND s.value LIKE 'py::" + function + ":%'");
}

// The frame at DEPTH of the backtrace of the OS-runtime call of the rank whose global ids carry HW.
std::string backtraceFrame(const Database& db, uint32_t hw, int depth) {
  auto row = db.prepare(
      "SELECT s.value FROM OSRT_API o JOIN OSRT_CALLCHAINS c ON c.id = o.callchainId AND c.stackDepth = ?2 JOIN "
      "StringIds s ON s.id = c.symbol WHERE (o.globalTid >> 56) = ?1");
  row.bind(1, int64_t{hw});
  row.bind(2, int64_t{depth});
  return row.step() ? std::string(row.text(0)) : "";
}

struct TwoRanks {
  std::string rank0, rank1, merged;
  ~TwoRanks() {
    for (const std::string& path : {rank0, rank1, merged}) std::filesystem::remove(path);
  }
};

TwoRanks writeTwoRanks(const std::string& test, RankRecording second) {
  TwoRanks files;
  files.rank0 = testing::writeRankRecording(test + "_r0.sqlite", {0, 1'790'000'000'000'000'000, "train_step", 3});
  second.rank = 1;
  files.rank1 = testing::writeRankRecording(test + "_r1.sqlite", second);
  files.merged = testing::processTempPath("merge_samples", test + "_job.sqlite");
  return files;
}

TEST(MergeSamples, EverySampleOfEveryRankIsKeptWithItsOwnStack) {
  TwoRanks files = writeTwoRanks("keep", {1, 1'790'000'000'010'000'000, "load_shard", 5});
  MergeSummary summary = mergeTraces({files.rank0, files.rank1}, files.merged);
  for (const std::string& line : summary.notKept) ADD_FAILURE() << "not kept: " << line;
  Database merged = Database::openReadOnly(files.merged);
  uint32_t hw0 = summary.inputs.at(0).rank.hwFirst, hw1 = summary.inputs.at(1).rank.hwFirst;
  ASSERT_NE(hw0, hw1);
  EXPECT_EQ(countOf(merged, "SELECT count(*) FROM COMPOSITE_EVENTS"), 8);
  // Both inputs numbered their samples from 1: merged, each sample still joins its own rank's stack.
  EXPECT_EQ(samplesIn(merged, hw0, "train_step"), 3);
  EXPECT_EQ(samplesIn(merged, hw1, "load_shard"), 5);
  EXPECT_EQ(samplesIn(merged, hw1, "train_step"), 0);
  EXPECT_EQ(countOf(merged, "SELECT count(DISTINCT id) FROM SAMPLING_CALLCHAINS"), 8);
  // Both OS-runtime calls had callchainId 1: each still reaches its own backtrace.
  EXPECT_EQ(backtraceFrame(merged, hw0, 0), "poll");
  EXPECT_EQ(backtraceFrame(merged, hw0, 1), "py::train_step:/x/train.py:8");
  EXPECT_EQ(backtraceFrame(merged, hw1, 1), "py::load_shard:/x/train.py:8");
  // Times moved by the rank's shift: rank 1 started 10 ms after rank 0.
  EXPECT_EQ(summary.inputs.at(1).rank.timeShiftNs, 10'000'000);
  EXPECT_EQ(countOf(merged, "SELECT min(start) FROM COMPOSITE_EVENTS WHERE (globalTid >> 56) = " + std::to_string(hw1)),
            2000 + 10'000'000);
}

TEST(MergeSamples, FilesOfDifferentRunsAreRefusedInOneSentenceUnlessForced) {
  // Rank 1 "started" an hour after rank 0, and each run lasted a second.
  TwoRanks files = writeTwoRanks("apart", {1, 1'790'000'000'000'000'000 + 3'600'000'000'000, "load_shard", 5});
  try {
    mergeTraces({files.rank0, files.rank1}, files.merged);
    ADD_FAILURE() << "merged two runs an hour apart without --force";
  } catch (const TraceError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("probably not one run"), std::string::npos) << message;
    EXPECT_NE(message.find("--force"), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(files.merged));
  MergeOptions force;
  force.force = true;
  MergeSummary summary = mergeTraces({files.rank0, files.rank1}, files.merged, force);
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings.front().find("3600.000 s"), std::string::npos) << summary.warnings.front();
  EXPECT_TRUE(std::filesystem::exists(files.merged));
}

TEST(MergeSamples, RanksThatStartedCloserThanTheRunLastedAreOneRun) {
  // 0.9 s apart, runs of 1 s: one run whose second rank started late.
  TwoRanks files = writeTwoRanks("close", {1, 1'790'000'000'900'000'000, "load_shard", 5});
  MergeSummary summary = mergeTraces({files.rank0, files.rank1}, files.merged);
  EXPECT_TRUE(summary.warnings.empty());
}

TEST(MergeSamples, CollectivesEndingOverASecondApartAreNotOneRun) {
  // Session starts that say nothing (one file lacks its own), collectives that do.
  std::vector<MergedRunFacts> inputs = {{"r0.sqlite", std::nullopt, 5'000'000'000},
                                        {"r1.sqlite", 1'790'000'000'000'000'000, 5'000'000'000}};
  CollectiveSpread apart;
  apart.matched = 40;
  apart.medianEndSpreadNs = 44'755'000'000;
  std::optional<std::string> reason = differentRunsReason(inputs, apart);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("44.755 s apart"), std::string::npos) << *reason;
  CollectiveSpread together = apart;
  together.medianEndSpreadNs = kSameRunCollectiveSpreadNs;  // at the limit: still one run
  EXPECT_FALSE(differentRunsReason(inputs, together).has_value());
  EXPECT_FALSE(differentRunsReason(inputs, CollectiveSpread{}).has_value());
}

}  // namespace
}  // namespace gpuscope
