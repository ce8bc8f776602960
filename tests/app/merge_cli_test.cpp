// `gpuscope merge` as a user runs it: two runs of loader2 on one clock, what it prints, `stats` on the
// merged file counting both runs, and bad inputs refused with one sentence and a non-zero exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "core/db/sqlite_database.h"
#include "process_runner.h"

namespace {

using gpuscope::test::nsysFixture;
using gpuscope::test::readWholeFile;
using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

// A copy of loader2.sqlite for a merge test; LATER_NS moves its session start.
std::string mergeCliInput(const std::string& name, int64_t laterNs) {
  auto path = testTempPath("merge_cli", name);
  std::filesystem::copy_file(nsysFixture("loader2.sqlite"), path, std::filesystem::copy_options::overwrite_existing);
  auto db = gpuscope::Database::openWritable(path);
  db.exec("UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + " + std::to_string(laterNs));
  return path;
}

struct KernSumRow {
  int64_t totalNs = 0;
  int64_t instances = 0;
  std::string avgToMax;  // Avg, Med, Min and Max as printed
};

// cuda_gpu_kern_sum's CSV by kernel name (the last column, quoted where it holds commas).
std::map<std::string, KernSumRow> kernSumByName(const std::string& csv) {
  std::map<std::string, KernSumRow> rows;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    size_t at = 0;
    for (int i = 0; i < 8; ++i) {
      size_t comma = line.find(',', at);
      cells.push_back(line.substr(at, comma - at));
      at = comma + 1;
    }
    KernSumRow row{std::stoll(cells[1]), std::stoll(cells[2]),
                   cells[3] + "," + cells[4] + "," + cells[5] + "," + cells[6]};
    rows[line.substr(at)] = row;
  }
  return rows;
}

TEST(MergeCli, TwoRunsOnOneClockAndStatsCountsBoth) {
  auto first = mergeCliInput("first.sqlite", 0);
  auto second = mergeCliInput("second.sqlite", 2'500'000'000);
  auto out = testTempPath("merge_cli", "merged.sqlite");
  auto merge = runGpuscope("merge '" + first + "' '" + second + "' -o '" + out + "'");
  ASSERT_EQ(merge.exitCode, 0) << merge.err;
  EXPECT_NE(merge.out.find("Merged 2 files into " + out), std::string::npos) << merge.out;
  EXPECT_NE(merge.out.find("2,500.000"), std::string::npos) << merge.out;
  EXPECT_NE(merge.out.find("984"), std::string::npos) << merge.out;
  // Tables the schema does not declare are named with their rows; OS-runtime backtraces are declared and kept.
  EXPECT_NE(merge.out.find("CUPTI_ACTIVITY_KIND_CUDA_EVENT (144 rows) is not copied by merge."), std::string::npos)
      << merge.out;
  EXPECT_EQ(merge.out.find("OSRT_CALLCHAINS"), std::string::npos) << merge.out;

  auto stats = runGpuscope("stats '" + out + "' --report cuda_gpu_kern_sum --format csv");
  ASSERT_EQ(stats.exitCode, 0) << stats.err;
  auto merged = kernSumByName(stats.out);
  auto single = kernSumByName(readWholeFile(nsysFixture("loader2_stats_cuda_gpu_kern_sum.csv")));
  ASSERT_EQ(single.size(), 32u);
  ASSERT_EQ(merged.size(), single.size());
  for (const auto& [name, row] : single) {
    ASSERT_TRUE(merged.count(name)) << name;
    EXPECT_EQ(merged[name].instances, 2 * row.instances) << name;
    EXPECT_EQ(merged[name].totalNs, 2 * row.totalNs) << name;
  }
}

TEST(MergeCli, RelativePrintsNoShift) {
  auto first = mergeCliInput("first.sqlite", 0);
  auto second = mergeCliInput("second.sqlite", 2'500'000'000);
  auto out = testTempPath("merge_cli", "merged.sqlite");
  auto merge = runGpuscope("merge '" + first + "' '" + second + "' -o '" + out + "' --relative");
  ASSERT_EQ(merge.exitCode, 0) << merge.err;
  EXPECT_EQ(merge.out.find("2,500.000"), std::string::npos) << merge.out;
  EXPECT_NE(merge.out.find("each input's own start at time 0"), std::string::npos) << merge.out;
}

// The merge checks its clock against the ranks' collectives; the DDP run's ranks (tests/fixtures/ranks, one
// nsys export per rank) line up to tens of microseconds, and --align-collectives brings that down further.
TEST(MergeCli, PrintsHowFarApartTheRanksCollectivesEnd) {
  auto first = mergeCliInput("first.sqlite", 0);
  auto second = mergeCliInput("second.sqlite", 0);
  auto out = testTempPath("merge_cli", "merged.sqlite");
  auto noCollectives = runGpuscope("merge '" + first + "' '" + second + "' -o '" + out + "'");
  ASSERT_EQ(noCollectives.exitCode, 0) << noCollectives.err;
  EXPECT_NE(noCollectives.out.find("Collectives: no collective kernels (NCCL) on two ranks or more"), std::string::npos)
      << noCollectives.out;

  std::string ranks[2];
  for (int r = 0; r < 2; ++r) {
    ranks[r] = testTempPath("merge_cli", "rank" + std::to_string(r) + ".sqlite");
    std::string gz = std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/rank" + std::to_string(r) + ".sqlite.gz";
    ASSERT_EQ(std::system(("gzip -dc '" + gz + "' > '" + ranks[r] + "'").c_str()), 0);
  }
  auto merge = runGpuscope("merge '" + ranks[0] + "' '" + ranks[1] + "' -o '" + out + "' --align-collectives");
  ASSERT_EQ(merge.exitCode, 0) << merge.err;
  EXPECT_NE(merge.out.find("Collectives before the alignment: ends apart by a median 19.087 us"), std::string::npos)
      << merge.out;
  EXPECT_NE(merge.out.find("Collectives: 144 matched on every rank, after aligning each rank on them"),
            std::string::npos)
      << merge.out;
  auto straggler = runGpuscope("analyze '" + out + "' -r straggler --format json");
  ASSERT_EQ(straggler.exitCode, 0) << straggler.err;
  EXPECT_NE(straggler.out.find("\"rank\": 1"), std::string::npos) << straggler.out;
}

TEST(MergeCli, BadInputsGetOneSentenceAndAFailingExit) {
  auto good = mergeCliInput("good.sqlite", 0);
  auto text = testTempPath("merge_cli", "notes.txt");
  std::ofstream(text) << "not a trace\n";
  auto out = testTempPath("merge_cli", "merged.sqlite");
  for (const std::string& args : {"'" + good + "' '" + text + "'", "'" + good + "' '" + good + "'"}) {
    auto run = runGpuscope("merge " + args + " -o '" + out + "'");
    EXPECT_NE(run.exitCode, 0) << args;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_EQ(run.err.find("terminate"), std::string::npos) << run.err;
  }
}

// A gzipped recording of tests/fixtures/ranks/gpuscope, decompressed for the running test.
std::string hostRankRecording(int rank) {
  std::string path = testTempPath("merge_cli", "host_rank" + std::to_string(rank) + ".sqlite");
  std::string gz = std::string(GPUSCOPE_FIXTURES) + "/ranks/gpuscope/host_rank" + std::to_string(rank) + ".sqlite.gz";
  EXPECT_EQ(std::system(("gzip -dc '" + gz + "' > '" + path + "'").c_str()), 0);
  return path;
}

int64_t rowCount(const std::string& path, const std::string& sql) {
  auto db = gpuscope::Database::openReadOnly(path);
  auto row = db.prepare(sql);
  return row.step() ? row.int64(0) : -1;
}

TEST(MergeCli, EachRanksSamplesAreKeptAndReadAsInItsOwnFile) {
  std::string ranks[2] = {hostRankRecording(0), hostRankRecording(1)};
  auto out = testTempPath("merge_cli", "merged.sqlite");
  auto merge = runGpuscope("merge '" + ranks[0] + "' '" + ranks[1] + "' -o '" + out + "'");
  ASSERT_EQ(merge.exitCode, 0) << merge.err;
  EXPECT_EQ(merge.out.find("Not kept"), std::string::npos) << merge.out;
  int64_t samples = 0;
  for (const std::string& rank : ranks) {
    samples += rowCount(rank, "SELECT count(*) FROM COMPOSITE_EVENTS");
    int64_t pid = rowCount(rank, "SELECT pid FROM GPUSCOPE_RANKS");
    auto own = runGpuscope("samples '" + rank + "' --pid " + std::to_string(pid) + " --view flat -f csv");
    auto merged = runGpuscope("samples '" + out + "' --pid " + std::to_string(pid) + " --view flat -f csv");
    ASSERT_EQ(own.exitCode, 0) << own.err;
    EXPECT_GT(std::count(own.out.begin(), own.out.end(), '\n'), 5) << own.out;
    EXPECT_EQ(merged.out, own.out) << "pid " << pid;
  }
  EXPECT_EQ(rowCount(out, "SELECT count(*) FROM COMPOSITE_EVENTS"), samples);
  // Rank 1 ran load_shard(); its samples there are still its own after the merge.
  EXPECT_GT(rowCount(out,
                     "SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol JOIN "
                     "COMPOSITE_EVENTS e ON e.id = c.id WHERE s.value LIKE '%load_shard%' AND (e.globalTid >> 56) = "
                     "(SELECT hwFirst FROM GPUSCOPE_RANKS WHERE rank = 1)"),
            100);
  EXPECT_EQ(rowCount(out,
                     "SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol JOIN "
                     "COMPOSITE_EVENTS e ON e.id = c.id WHERE s.value LIKE '%load_shard%' AND (e.globalTid >> 56) = "
                     "(SELECT hwFirst FROM GPUSCOPE_RANKS WHERE rank = 0)"),
            0);
}

TEST(MergeCli, InfoCountsEveryDeclaredTableTheMergeHolds) {
  std::string ranks[2] = {hostRankRecording(0), hostRankRecording(1)};
  auto out = testTempPath("merge_cli", "merged.sqlite");
  ASSERT_EQ(runGpuscope("merge '" + ranks[0] + "' '" + ranks[1] + "' -o '" + out + "'").exitCode, 0);
  int64_t samples = rowCount(ranks[0], "SELECT count(*) FROM COMPOSITE_EVENTS") +
                    rowCount(ranks[1], "SELECT count(*) FROM COMPOSITE_EVENTS");
  auto text = runGpuscope("info '" + out + "'");
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("  COMPOSITE_EVENTS: " + std::to_string(samples) + " rows\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  GPUSCOPE_RANKS: 2 rows\n"), std::string::npos) << text.out;
  auto json = runGpuscope("info --format json '" + out + "'");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_NE(json.out.find("\"COMPOSITE_EVENTS\": " + std::to_string(samples)), std::string::npos) << json.out;
}

TEST(MergeCli, RunsAnHourApartAreRefusedUnlessForced) {
  auto first = mergeCliInput("first.sqlite", 0);
  auto later = mergeCliInput("later.sqlite", 3'600'000'000'000);
  auto out = testTempPath("merge_cli", "merged.sqlite");
  std::filesystem::remove(out);  // left by an earlier run of this test
  auto refused = runGpuscope("merge '" + first + "' '" + later + "' -o '" + out + "'");
  EXPECT_NE(refused.exitCode, 0);
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_NE(refused.err.find("probably not one run"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  auto forced = runGpuscope("merge --force '" + first + "' '" + later + "' -o '" + out + "'");
  ASSERT_EQ(forced.exitCode, 0) << forced.err;
  EXPECT_NE(forced.err.find("gpuscope: warning: "), std::string::npos) << forced.err;
  EXPECT_TRUE(std::filesystem::exists(out));
}

}  // namespace
