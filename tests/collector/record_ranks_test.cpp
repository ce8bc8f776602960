// Recording ranks: nsys's output-name patterns (-o 'run.%q{RANK}.sqlite'), and the rank variables each
// recorded process had in its environment, written to GPUSCOPE_RANKS per process. No GPU: a shell launcher
// starts the "ranks", as torchrun or mpirun would.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "collector/launch/output_name.h"
#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/rank_table.h"
#include "core/model/trace_loader.h"
#include "core/ranks/rank_identity.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

OutputNameFacts facts() {
  OutputNameFacts facts;
  facts.environment = [](const std::string& name) -> const char* {
    static const std::map<std::string, std::string> values = {{"RANK", "3"}, {"EMPTY", ""}};
    auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  };
  facts.hostName = "node7";
  facts.pid = 4242;
  return facts;
}

TEST(OutputName, ExpandsNsysPatterns) {
  EXPECT_EQ(expandOutputName("run.%q{RANK}.sqlite", facts()), "run.3.sqlite");
  EXPECT_EQ(expandOutputName("dir/%h-%p-%q{RANK}", facts()), "dir/node7-4242-3");
  EXPECT_EQ(expandOutputName("100%%-%q{EMPTY}x", facts()), "100%-x");
  EXPECT_EQ(expandOutputName("plain.sqlite", facts()), "plain.sqlite");
  // Other % sequences, and a % at the end, are the name's own.
  EXPECT_EQ(expandOutputName("a%b%", facts()), "a%b%");
}

TEST(OutputName, RefusesAnUnsetVariableInOneSentence) {
  try {
    expandOutputName("run.%q{SLURM_PROCID}.sqlite", facts());
    FAIL() << "an unset variable was expanded";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("the environment variable SLURM_PROCID is not set"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(expandOutputName("run.%q{RANK.sqlite", facts()), TraceError);
  EXPECT_THROW(expandOutputName("run.%qRANK", facts()), TraceError);
}

TEST(RecordRanks, UnsetOutputVariableStopsBeforeAnythingRuns) {
  TempDir dir;
  std::string marker = dir.file("ran");
  RunResult result = runGpuscope(
      {"record", "-o", dir.file("r%q{GPUSCOPE_TEST_NO_SUCH_RANK}.sqlite"), "--", "/bin/sh", "-c", "touch " + marker});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.errorOutput.find("GPUSCOPE_TEST_NO_SUCH_RANK is not set"), std::string::npos) << result.errorOutput;
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

std::string hostName() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

// Two "ranks" started by a shell, as a launcher starts its workers, each with the launcher's variables.
const char* kTwoRanks =
    "RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 /bin/sleep 0.2 & "
    "OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_SIZE=2 /bin/sleep 0.2 & wait";

TEST(RecordRanks, EveryLaunchedProcessKnowsItsRankAndHost) {
  TempDir dir;
  std::string trace = dir.file("job.sqlite");
  RunResult result = runGpuscope({"record", "-o", trace, "--", "/bin/sh", "-c", kTwoRanks});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  auto rows = query(trace,
                    "SELECT r.rank, r.localRank, r.worldSize, r.hostName, r.pid, r.sessionStartUtcNs, r.rankSource, "
                    "p.name FROM GPUSCOPE_RANKS r JOIN PROCESSES p ON p.pid = r.pid ORDER BY r.rank");
  ASSERT_EQ(rows.size(), 2u);
  std::string sessionStart = query(trace, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")[0][0];
  for (int rank = 0; rank < 2; ++rank) {
    const auto& row = rows[static_cast<size_t>(rank)];
    EXPECT_EQ(row[0], std::to_string(rank));
    EXPECT_EQ(row[1], std::to_string(rank));
    EXPECT_EQ(row[2], "2");
    EXPECT_EQ(row[3], hostName());
    EXPECT_EQ(row[5], sessionStart);
    EXPECT_EQ(row[7], "sleep");
  }
  EXPECT_NE(rows[0][4], rows[1][4]);
  EXPECT_EQ(rows[0][6], "environment RANK");
  EXPECT_EQ(rows[1][6], "environment OMPI_COMM_WORLD_RANK");

  // The viewer's process rows (the timeline's rank header) see the ranks; the launcher has none.
  auto loaded = loadTrace(trace);
  std::map<int64_t, std::string> ranked;
  for (const ProcessInfo& process : loaded->processes()) {
    if (std::to_string(process.pid) == rows[0][4] || std::to_string(process.pid) == rows[1][4]) {
      ASSERT_TRUE(process.rank.has_value()) << process.pid;
      ranked[*process.rank] = process.host;
    } else {
      EXPECT_FALSE(process.rank.has_value()) << process.name;
    }
  }
  EXPECT_EQ(ranked, (std::map<int64_t, std::string>{{0, hostName()}, {1, hostName()}}));
  // A whole job is no single rank.
  EXPECT_FALSE(readRankIdentity(Database::openReadOnly(trace)).rank.has_value());
}

// A rank's own children (DataLoader workers, a wrapper script's program) inherit its variables: each gets a
// row of that rank, and the file is still one rank's.
TEST(RecordRanks, ARanksChildrenShareItsRank) {
  TempDir dir;
  std::string trace = dir.file("rank1.sqlite");
  RunResult result = runGpuscope({"record", "-o", trace, "--", "/bin/sh", "-c",
                                  "RANK=1 WORLD_SIZE=2 /bin/sh -c '/bin/sleep 0.1 & /bin/sleep 0.1 & wait'"});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_EQ(queryInt(trace, "SELECT count(DISTINCT pid) FROM GPUSCOPE_RANKS WHERE rank = 1 AND worldSize = 2"), 3);
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM GPUSCOPE_RANKS WHERE rank <> 1"), 0);
  RankIdentity identity = readRankIdentity(Database::openReadOnly(trace));
  EXPECT_EQ(identity.rank, 1);
  EXPECT_EQ(identity.worldSize, 2);
}

TEST(RecordRanks, PatternUnderALauncherWritesOneFilePerRank) {
  TempDir dir;
  std::string output = dir.file("r%q{RANK}.sqlite");
  std::string record = std::string(GPUSCOPE_CLI) + " record --sample none --cpuctxsw none -o '" + output + "' -- ";
  std::string launcher = "RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 " + record + "/bin/sleep 0.1 2>/dev/null & " +
                         "RANK=1 LOCAL_RANK=1 WORLD_SIZE=2 " + record + "/bin/sleep 0.1 2>/dev/null & wait";
  ASSERT_EQ(std::system(launcher.c_str()), 0);
  for (int rank = 0; rank < 2; ++rank) {
    std::string file = dir.file("r" + std::to_string(rank) + ".sqlite");
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    RankIdentity identity = readRankIdentity(Database::openReadOnly(file));
    EXPECT_EQ(identity.rank, rank);
    EXPECT_EQ(identity.localRank, rank);
    EXPECT_EQ(identity.worldSize, 2);
    EXPECT_EQ(identity.hostName, hostName());
    EXPECT_TRUE(identity.sessionStartUtcNs.has_value());
  }
  // gpuscope merge takes each file's own rank.
  std::string merged = dir.file("merged.sqlite");
  RunResult merge = runGpuscope({"merge", dir.file("r1.sqlite"), dir.file("r0.sqlite"), "-o", merged});
  ASSERT_EQ(merge.status, 0) << merge.errorOutput;
  std::vector<RankRow> rows = readRankRows(Database::openReadOnly(merged));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rank, 0);
  EXPECT_EQ(rows[0].sourcePath, dir.file("r0.sqlite"));
  EXPECT_EQ(rows[1].rank, 1);
  EXPECT_EQ(rows[1].rankSource, "GPUSCOPE_RANKS");
}

}  // namespace
}  // namespace gpuscope::test
