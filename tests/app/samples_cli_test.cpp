// `gpuscope samples` as a user runs it on nsys's export with CPU sampling, and on a file without samples.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "process_runner.h"
#include "tests/core/samples/samples_fixtures.h"

namespace {

using gpuscope::test::runGpuscope;

std::string loader2Samples() { return gpuscope::testing::samplingFixture("loader2_samp"); }

std::vector<std::string> csvLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(SamplesCli, FlatCsvByFrameListsEveryFrameMostSelfFirst) {
  auto run = runGpuscope("samples '" + loader2Samples() + "' --by frame --format csv");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto lines = csvLines(run.out);
  ASSERT_GT(lines.size(), 40u);  // csv is not cut at --limit
  EXPECT_EQ(lines[0], "Self,Self %,Total,Total %,Function,Module");
  auto table = runGpuscope("samples '" + loader2Samples() + "' --by frame --limit 3");
  EXPECT_NE(table.out.find("CPU Samples: Frames (samples_flat)"), std::string::npos) << table.out;
  auto json = nlohmann::json::parse(runGpuscope("samples '" + loader2Samples() + "' --by frame --format json").out);
  EXPECT_EQ(json["samples"].get<int64_t>(), 9944);
  const auto& top = json["functions"][0];
  EXPECT_NE(lines[1].find("," + top["name"].get<std::string>() + ","), std::string::npos) << lines[1];
  EXPECT_GE(top["total"].get<int64_t>(), top["self"].get<int64_t>());
}

// The default flat view is per function: the OpenBLAS pool's idle threads are apart, not its top function.
TEST(SamplesCli, FlatIsPerFunctionWithTheIdlePoolApart) {
  auto json = nlohmann::json::parse(runGpuscope("samples '" + loader2Samples() + "' --format json").out);
  EXPECT_EQ(json["samples"].get<int64_t>(), 9944);
  ASSERT_EQ(json["idle_pools"].size(), 1u);
  EXPECT_EQ(json["idle_pools"][0]["pool"], "OpenBLAS blas_thread_server");
  int64_t functionSamples = 0;
  for (const auto& function : json["functions"]) {
    EXPECT_NE(function["name"], "blas_thread_server");
    functionSamples += function["samples"].get<int64_t>();
  }
  EXPECT_EQ(functionSamples, json["working_samples"].get<int64_t>());
  EXPECT_EQ(json["working_samples"].get<int64_t>() + json["idle_pool_samples"].get<int64_t>(), 9944);

  auto csv = csvLines(runGpuscope("samples '" + loader2Samples() + "' --format csv").out);
  ASSERT_GT(csv.size(), 2u);
  EXPECT_EQ(csv[0], "Samples,Share %,Function,Module");
  EXPECT_NE(csv[1].find("," + json["functions"][0]["name"].get<std::string>() + ","), std::string::npos) << csv[1];

  auto table = runGpuscope("samples '" + loader2Samples() + "'");
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_NE(table.out.find("apart: idle thread-pool threads (OpenBLAS blas_thread_server): "), std::string::npos)
      << table.out;
}

TEST(SamplesCli, TableStopsAtTheLimitAndSaysSo) {
  auto run = runGpuscope("samples '" + loader2Samples() + "' --limit 5");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("CPU Samples: Functions"), std::string::npos);
  EXPECT_NE(run.out.find("more functions; --limit 0 shows all"), std::string::npos) << run.out;
}

TEST(SamplesCli, TopDownTreeNestsCallers) {
  auto run = runGpuscope("samples '" + loader2Samples() + "' --view top-down --format json --min-share 5");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto root = nlohmann::json::parse(run.out);
  EXPECT_EQ(root["total"].get<int64_t>(), 9944);
  ASSERT_FALSE(root["children"].empty());
  int64_t childTotals = 0;
  for (const auto& child : root["children"]) {
    EXPECT_GE(child["total"].get<int64_t>(), 9944 * 5 / 100);
    childTotals += child["total"].get<int64_t>();
  }
  EXPECT_LE(childTotals, 9944);
}

TEST(SamplesCli, ThreadsViewGivesRunningShares) {
  auto run = runGpuscope("samples '" + loader2Samples() + "' --view threads --format csv");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto lines = csvLines(run.out);
  EXPECT_EQ(lines[0], "PID,TID,Thread,Samples,Running %,Off CPU %,Preempted %,Sleeping %,Scheduled Time (ns)");
  EXPECT_GT(lines.size(), 20u);
}

TEST(SamplesCli, AFileWithoutSamplesGetsOneSentence) {
  auto run = runGpuscope("samples '" + gpuscope::test::nsysFixture("loader2.sqlite") + "'");
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_NE(run.err.find("holds no CPU samples"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST(SamplesCli, ABadRangeIsRefused) {
  auto run = runGpuscope("samples '" + loader2Samples() + "' --range 3s:1s");
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("--range wants FROM:TO"), std::string::npos) << run.err;
}

}  // namespace
