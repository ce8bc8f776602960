// `gpuscope analyze` as a user runs it: the verdict first (table), the verdict and findings as JSON with
// --by nvtx, and one sentence for a bad file.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct CliRun {
  int exitCode = -1;
  std::string out;
  std::string err;
};

std::string tempPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / ("analyze_cli_" + test + "_" + name)).string();
}

CliRun gpuscope(const std::string& args) {
  auto errPath = tempPath("stderr.txt");
  std::string command = "'" + std::string(GPUSCOPE_CLI) + "' " + args + " 2>'" + errPath + "'";
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  int status = pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(errPath);
  std::stringstream text;
  text << err.rdbuf();
  run.err = text.str();
  return run;
}

std::string fixture(const std::string& name) { return "'" + std::string(GPUSCOPE_FIXTURES) + "/" + name + "'"; }

TEST(AnalyzeCli, TablePrintsTheVerdictFirstAsOneSentenceWithItsNumbers) {
  CliRun run = gpuscope("analyze " + fixture("gpuscope/loader0.sqlite"));
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::string first = run.out.substr(0, run.out.find('\n'));
  EXPECT_EQ(first.rfind("Verdict: CPU bound: the GPU was busy ", 0), 0u) << first;
  EXPECT_NE(first.find(" while it waited in synchronizing calls."), std::string::npos) << first;
  EXPECT_NE(run.out.find("GPU waiting on the host (gpu_waits_on_host): "), std::string::npos);
}

TEST(AnalyzeCli, JsonHasTheVerdictItsEvidenceAndEveryFindingWithRanges) {
  CliRun run = gpuscope("analyze " + fixture("gpuscope/loader0.sqlite") + " --format json --by nvtx");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["verdict"]["class"], "cpu");
  const auto& evidence = json["verdict"]["evidence"];
  EXPECT_LT(evidence["gpu_busy_share"].get<double>(), 0.1);
  EXPECT_GT(evidence["gpu_idle_host_outside_cuda_share"].get<double>(), 0.5);
  EXPECT_EQ(evidence["kernels"], 984);
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
  auto prefix = tempPath("run");
  CliRun run = gpuscope("analyze " + fixture("gpuscope/loader0.sqlite") + " --format json -o '" + prefix + "'");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::ifstream file(prefix + "_verdict.json");
  ASSERT_TRUE(file);
  auto json = nlohmann::json::parse(file);
  EXPECT_EQ(json["verdict"]["class"], "cpu");
  EXPECT_FALSE(json.contains("findings"));
}

TEST(AnalyzeCli, ByTakesOnlyNvtx) {
  CliRun run = gpuscope("analyze " + fixture("gpuscope/loader0.sqlite") + " --by kernel");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_FALSE(run.err.empty());
}

}  // namespace
