// `gpuscope analyze` as a user runs it: the verdict first (table), the verdict and findings as JSON with
// --by nvtx, and one sentence for a bad file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "process_runner.h"

namespace {

using gpuscope::test::ProcessRun;
using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

// A fixture's path quoted for the shell.
std::string quotedFixture(const std::string& name) { return "'" + gpuscope::test::fixturePath(name) + "'"; }

TEST(AnalyzeCli, TablePrintsTheVerdictFirstAsOneSentenceWithItsNumbers) {
  ProcessRun run = runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite"));
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::string first = run.out.substr(0, run.out.find('\n'));
  EXPECT_EQ(first.rfind("Verdict: CPU bound: the GPU was busy ", 0), 0u) << first;
  EXPECT_NE(first.find(" while it waited in synchronizing calls."), std::string::npos) << first;
  EXPECT_NE(run.out.find("GPU waiting on the host (gpu_waits_on_host): "), std::string::npos);
}

TEST(AnalyzeCli, JsonHasTheVerdictItsEvidenceAndEveryFindingWithRanges) {
  ProcessRun run = runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite") + " --format json --by nvtx");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["verdict"]["class"], "cpu");
  const auto& evidence = json["verdict"]["evidence"];
  EXPECT_LT(evidence["gpu_busy_share"].get<double>(), 0.1);
  EXPECT_GT(evidence["gpu_idle_host_outside_cuda_share"].get<double>(), 0.5);
  // The judged window is steps 2 to 24 of 24: 943 of the run's 984 kernels (tests/core/analysis/verdict_test.cpp).
  EXPECT_EQ(evidence["kernels"], 943);
  EXPECT_EQ(json["verdict"]["judged_window"]["source"], "nvtx_steps");
  EXPECT_EQ(evidence["thresholds"]["gpu_bound_share"], 0.5);
  bool starving = false;
  for (const auto& finding : json["findings"]) {
    for (const char* key : {"id", "severity", "title", "explanation", "suggestion", "evidence", "ranges"})
      EXPECT_TRUE(finding.contains(key)) << key;
    if (finding["id"] == "gpu_waits_on_host") {
      starving = finding["found"].get<bool>() && !finding["ranges"].empty();
      EXPECT_TRUE(finding["ranges"][0].contains("tid"));
    }
  }
  EXPECT_TRUE(starving);
  bool step = false;
  for (const auto& range : json["nvtx_verdicts"]) {
    if (range["range"] != "step") continue;
    step = true;
    EXPECT_EQ(range["instances"], 24);
    EXPECT_TRUE(range["evidence"].contains("gpu_busy_share"));
  }
  EXPECT_TRUE(step);
}

TEST(AnalyzeCli, OutputPrefixWritesTheVerdictBesideTheRules) {
  auto prefix = testTempPath("analyze_cli", "run");
  ProcessRun run =
      runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite") + " --format json -o '" + prefix + "'");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::ifstream file(prefix + "_verdict.json");
  ASSERT_TRUE(file);
  auto json = nlohmann::json::parse(file);
  EXPECT_EQ(json["verdict"]["class"], "cpu");
  EXPECT_FALSE(json.contains("findings"));
}

// Under the verdict: the window it judged and why, the start-up set apart, and the three busy figures.
TEST(AnalyzeCli, TableSaysWhichWindowWasJudgedAndWhatStartUpDid) {
  ProcessRun run = runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite"));
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::istringstream lines(run.out);
  std::string verdict, judged, startup, figures;
  std::getline(lines, verdict);
  std::getline(lines, judged);
  std::getline(lines, startup);
  std::getline(lines, figures);
  EXPECT_EQ(judged.rfind("Judged window: NVTX ranges ", 0), 0u) << judged;
  EXPECT_NE(judged.find("the first set apart as warm-up"), std::string::npos) << judged;
  EXPECT_EQ(startup.rfind("Start-up set apart: ", 0), 0u) << startup;
  EXPECT_EQ(figures.rfind("Three figures for this window: GPU busy ", 0), 0u) << figures;
  EXPECT_NE(figures.find("HTA computing"), std::string::npos) << figures;
}

TEST(AnalyzeCli, RangeAndNvtxChooseTheJudgedWindow) {
  ProcessRun range =
      runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite") + " --range 1s:2s --format json");
  ASSERT_EQ(range.exitCode, 0) << range.err;
  auto json = nlohmann::json::parse(range.out);
  EXPECT_EQ(json["verdict"]["judged_window"]["source"], "user");
  EXPECT_EQ(json["verdict"]["judged_window"]["reason"], "--range 1s:2s");
  EXPECT_EQ(json["verdict"]["evidence"]["wall_ns"], 1000000000);
  EXPECT_TRUE(json.contains("figures"));
  ProcessRun nvtx =
      runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite") + " --nvtx 'epoch 0' --format json");
  ASSERT_EQ(nvtx.exitCode, 0) << nvtx.err;
  EXPECT_EQ(nlohmann::json::parse(nvtx.out)["verdict"]["judged_window"]["reason"], "--nvtx epoch 0");
}

TEST(AnalyzeCli, ABackwardRangeIsOneSentenceAndAFailure) {
  ProcessRun run = runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite") + " --range 5ms:1ms");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_NE(run.err.find("--range wants FROM:TO"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty());
}

TEST(AnalyzeCli, ByTakesOnlyNvtx) {
  ProcessRun run = runGpuscope("analyze " + quotedFixture("gpuscope/loader0.sqlite") + " --by kernel");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_FALSE(run.err.empty());
}

// Several PyTorch traces are the ranks of one run, as HTA takes a folder of them: the two-rank DDP run's
// per-rank breakdowns and overlaps, under the ranks their traces name, equal HTA 0.5.0's
// (tests/fixtures/ranks/hta_reference.json).
TEST(AnalyzeCli, SeveralKinetoTracesAreAnalyzedAsRanksAsHtaDoes) {
  std::string fixtures = std::string(GPUSCOPE_FIXTURES) + "/ranks/";
  ProcessRun run = runGpuscope("analyze '" + fixtures + "kineto/rank0.json.gz' '" + fixtures +
                               "kineto/rank1.json.gz' -r temporal_breakdown,comm_comp_overlap --format csv");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::ifstream file(fixtures + "hta_reference.json");
  nlohmann::json reference = nlohmann::json::parse(file);
  for (std::string rank : {"0", "1"}) {
    const auto& breakdown = reference["ranks"][rank]["temporal_breakdown"];
    char row[256];
    std::snprintf(row, sizeof row, "\n%s,%.1f,%.1f,%.1f,%.1f,", rank.c_str(), breakdown["idle_time(us)"].get<double>(),
                  breakdown["compute_time(us)"].get<double>(), breakdown["non_compute_time(us)"].get<double>(),
                  breakdown["kernel_time(us)"].get<double>());
    EXPECT_NE(run.out.find(row), std::string::npos) << row << " in " << run.out;
    double overlap = reference["ranks"][rank]["comm_comp_overlap"]["comp_comm_overlap_pctg"].get<double>();
    std::snprintf(row, sizeof row, "\n%s,%.2f\n", rank.c_str(), overlap);
    EXPECT_NE(run.out.find(row), std::string::npos) << row << " in " << run.out;
  }
  EXPECT_EQ(run.out.find("Analyzing 2 ranks"), std::string::npos) << "csv output carries no prose";
}

// The same two ranks in a table: each rank's verdict leads (rank 0 waits in its all-reduces for rank 1, which
// does host work), before the verdict of all ranks together; json carries one entry per rank.
TEST(AnalyzeCli, RanksAreJudgedEachOnItsOwnFirst) {
  std::string kineto = std::string(GPUSCOPE_FIXTURES) + "/ranks/kineto/";
  std::string files = "'" + kineto + "rank0.json.gz' '" + kineto + "rank1.json.gz'";
  ProcessRun run = runGpuscope("analyze " + files + " -r straggler");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("\nVerdict per rank: rank 0: Communication bound; rank 1: CPU bound (each below).\n"
                         "All ranks together, on one host thread: "),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n  rank 0: Communication bound: the GPU was busy "), std::string::npos) << run.out;
  ProcessRun json = runGpuscope("analyze " + files + " -r straggler --format json");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  auto document = nlohmann::json::parse(json.out);
  ASSERT_EQ(document["rank_verdicts"].size(), 2u);
  EXPECT_EQ(document["rank_verdicts"][0]["rank"], 0);
  EXPECT_EQ(document["rank_verdicts"][0]["class"], "communication");
  EXPECT_EQ(document["rank_verdicts"][1]["class"], "cpu");
  EXPECT_GT(document["rank_verdicts"][0]["evidence"]["gpu_busy_split"]["collectives_alone_ns"].get<int64_t>(), 0);
}

// Each rank's findings beside its verdict, found on its own rows: the straggler finding is rank 1's and names it,
// the GPU waits on rank 1's host thread and not on rank 0's; json carries them in each rank's entry, and csv
// adds each rank's blocks after the whole file's.
TEST(AnalyzeCli, EachRankHasItsOwnFindings) {
  std::string kineto = std::string(GPUSCOPE_FIXTURES) + "/ranks/kineto/";
  std::string files = "'" + kineto + "rank0.json.gz' '" + kineto + "rank1.json.gz' -r straggler,gpu_waits_on_host";
  ProcessRun table = runGpuscope("analyze " + files);
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_NE(table.out.find("\nrank 0: no rule found anything in its judged window.\n\nrank 1: 2 findings in its judged "
                           "window, the most at stake first\n\n ** Straggler rank (straggler): "),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("\n   rank 1 started 40 of 40 collectives last"), std::string::npos) << table.out;
  ProcessRun json = runGpuscope("analyze " + files + " --format json");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  auto document = nlohmann::json::parse(json.out);
  EXPECT_FALSE(document.contains("findings")) << "a file of ranks has its findings per rank";
  const auto& ranks = document["rank_verdicts"];
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_TRUE(ranks[0]["findings"].empty()) << ranks[0]["findings"].dump();
  ASSERT_EQ(ranks[1]["findings"].size(), 2u);
  for (const auto& finding : ranks[1]["findings"]) {
    EXPECT_TRUE(finding["found"].get<bool>());
    for (const auto& place : finding["ranges"])
      EXPECT_EQ(place["pid"], ranks[1]["evidence"]["host_thread"]["pid"]) << finding["id"];
  }
  EXPECT_EQ(ranks[1]["findings"][0]["evidence"]["rank"], 1);
  ProcessRun csv = runGpuscope("analyze " + files + " --format csv");
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  EXPECT_NE(csv.out.find("\n# rank 1: straggler\n"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find("# rank 0: "), std::string::npos) << csv.out;
}

}  // namespace
