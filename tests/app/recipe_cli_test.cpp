// `gpuscope recipe` as a user runs it: a Dask LocalCluster of 2 workers over 64 rank files gives the same
// tables as the recipe in one process, and as `gpuscope stats` on the 64 files merged into one; bad inputs
// get one sentence and a failing exit. Dask is Debian's python3-distributed: required where CI or
// GPUSCOPE_REQUIRE_PY_TESTS (.ci/run) is set, skipped with the reason elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "process_runner.h"

namespace {

namespace fs = std::filesystem;
using gpuscope::test::readWholeFile;
using gpuscope::test::runGpuscope;
using gpuscope::test::runProgram;

constexpr int kRanks = 64;

// A folder of COUNT rank files for the running test (ctest runs the tests at once, each its own folder):
// copies of the two real rank exports, each told its own RANK.
std::string rankFolder(int count = kRanks) {
  fs::path dir = gpuscope::test::testTempPath("recipe_cli", "ranks");
  char last[32];
  std::snprintf(last, sizeof last, "rank%02d.sqlite", count - 1);
  if (fs::exists(dir / "ranks" / last)) return (dir / "ranks").string();  // made by this test already
  fs::remove_all(dir);
  fs::create_directories(dir / "ranks");
  for (int r = 0; r < 2; ++r) {
    std::string gz = std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/rank" + std::to_string(r) + ".sqlite.gz";
    std::string source = (dir / ("source" + std::to_string(r) + ".sqlite")).string();
    EXPECT_EQ(std::system(("gzip -dc '" + gz + "' > '" + source + "'").c_str()), 0);
  }
  for (int rank = 0; rank < count; ++rank) {
    char name[32];
    std::snprintf(name, sizeof name, "rank%02d.sqlite", rank);
    fs::path path = dir / "ranks" / name;
    fs::copy_file(dir / ("source" + std::to_string(rank % 2) + ".sqlite"), path);
    auto db = gpuscope::Database::openWritable(path.string());
    db.exec("UPDATE META_DATA_CAPTURE SET value = 'RANK=\"" + std::to_string(rank) + "\"' WHERE value LIKE 'RANK=%'");
  }
  return (dir / "ranks").string();
}

std::string python() {
  const char* named = std::getenv("GPUSCOPE_PYTHON");
  return named && *named ? named : "/usr/bin/python3";
}

// Skips (or, under CI, fails) when the python gpuscope recipe runs has no Dask.
#define REQUIRE_DASK()                                                                                              \
  do {                                                                                                              \
    if (runProgram(python(), {"-c", "import distributed"}).exitCode != 0) {                                         \
      if (std::getenv("CI") || std::getenv("GPUSCOPE_REQUIRE_PY_TESTS"))                                            \
        FAIL() << python() << " cannot import distributed: install python3-distributed";                            \
      GTEST_SKIP() << python() << " cannot import distributed (python3-distributed): recipe's Dask modes untested"; \
    }                                                                                                               \
  } while (false)

std::string out(const std::string& name) {
  auto path = gpuscope::test::testTempPath("recipe_cli_out", name);
  fs::remove_all(path);
  return path;
}

std::string recipe(const std::string& name, const std::string& output, const std::string& mode) {
  auto run = runGpuscope("recipe " + name + " --input '" + rankFolder() + "' --output '" + output + "' " + mode);
  EXPECT_EQ(run.exitCode, 0) << name << " " << mode << ": " << run.err;
  return readWholeFile(output + "/stats.csv");
}

const std::vector<std::string> kStatsTwins = {"cuda_gpu_kern_sum", "cuda_api_sum", "nvtx_sum", "nvtx_gpu_proj_sum",
                                              "osrt_sum"};

TEST(RecipeCli, LocalClusterEqualsOneProcessAndStatsOnTheMergedFile) {
  REQUIRE_DASK();
  std::string merged = out("merged.sqlite");
  std::string files;
  for (const auto& entry : fs::directory_iterator(rankFolder())) files += " '" + entry.path().string() + "'";
  auto merge = runGpuscope("merge" + files + " -o '" + merged + "'");
  ASSERT_EQ(merge.exitCode, 0) << merge.err;
  std::string reports;
  for (const auto& name : kStatsTwins) reports += (reports.empty() ? "" : ",") + name;
  auto stats = runGpuscope("stats '" + merged + "' -r " + reports + " --format csv -o '" + merged + "'");
  ASSERT_EQ(stats.exitCode, 0) << stats.err;

  std::map<std::string, std::string> serialDirs;  // in one process
  for (const auto& entry : kStatsTwins) {
    serialDirs[entry] = out(entry + "_serial");
    EXPECT_FALSE(recipe(entry, serialDirs[entry], "--mode serial").empty()) << entry;
  }
  for (const auto& name : kStatsTwins)
    EXPECT_EQ(readWholeFile(serialDirs[name] + "/stats.csv"), readWholeFile(merged + "_" + name + ".csv")) << name;
  for (const std::string name : {"cuda_gpu_kern_sum", "nvtx_gpu_proj_sum"}) {
    std::string localDir = out(name + "_local");
    EXPECT_EQ(recipe(name, localDir, "--mode local --workers 2"), readWholeFile(serialDirs[name] + "/stats.csv"))
        << name;
    EXPECT_EQ(readWholeFile(localDir + "/rank_stats.csv"), readWholeFile(serialDirs[name] + "/rank_stats.csv")) << name;
  }
}

TEST(RecipeCli, RankStatsHoldEachRanksOwnStats) {
  std::string dir = out("rank_stats");
  recipe("cuda_gpu_kern_sum", dir, "--mode serial");
  auto one = runGpuscope("stats '" + rankFolder() + "/rank05.sqlite' -r cuda_gpu_kern_sum --format csv");
  ASSERT_EQ(one.exitCode, 0) << one.err;
  std::string rankStats = readWholeFile(dir + "/rank_stats.csv");
  std::istringstream lines(one.out);
  std::string line;
  std::getline(lines, line);  // the header
  EXPECT_EQ(rankStats.substr(0, rankStats.find('\n')), "Rank," + line);
  while (std::getline(lines, line)) EXPECT_NE(rankStats.find("\n5," + line + "\n"), std::string::npos) << line;
  EXPECT_NE(readWholeFile(dir + "/files.csv").find("63," + rankFolder() + "/rank63.sqlite,"), std::string::npos);
}

TEST(RecipeCli, BadInputsGetOneSentenceAndAFailingExit) {
  REQUIRE_DASK();
  std::string notTrace = out("notes.sqlite");
  std::ofstream(notTrace) << "not a trace\n";
  std::string good = "'" + rankFolder(1) + "/rank00.sqlite' ";
  std::string shadow = out("no_dask");  // a python path where `import distributed` fails
  fs::create_directories(shadow);
  std::ofstream(shadow + "/distributed.py") << "raise ImportError('No module named distributed')\n";
  struct Case {
    std::string args;
    std::string said;
    gpuscope::test::EnvChanges env;
  };
  std::vector<Case> cases = {
      {"nosuch_sum --input " + good, "There is no recipe named \"nosuch_sum\"", {}},
      {"nvtx_sum --input " + good + "'" + notTrace + "' --workers 1", notTrace, {}},
      {"nvtx_sum --input " + good + "'" + notTrace + "' --mode serial", notTrace, {}},
      {"nvtx_sum --input " + good + "--mode dask-futures --scheduler tcp://127.0.0.1:9",
       "Could not reach the Dask scheduler at tcp://127.0.0.1:9",
       {}},
      {"nvtx_sum --input " + good + "--mode dask-futures", "give its address with --scheduler", {}},
      {"nvtx_sum --input " + good, "cannot import distributed", {{"PYTHONPATH", shadow}}},
  };
  for (const auto& c : cases) {
    auto run = runGpuscope("recipe " + c.args + " --output '" + out("bad") + "'", c.env);
    EXPECT_NE(run.exitCode, 0) << c.args;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << c.args << ": " << run.err;
    EXPECT_NE(run.err.find(c.said), std::string::npos) << c.args << ": " << run.err;
  }
}

}  // namespace
