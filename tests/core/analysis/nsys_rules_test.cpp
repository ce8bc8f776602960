// nsys's expert-system rules: the CSV gpuscope writes for every rule on both real exports is
// byte-identical to what `nsys analyze --format csv` printed (tests/fixtures/nsys/*_analyze_*.csv),
// and the options behave as nsys documents them: strict thresholds, rows, time and NVTX windows.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/analysis/finding_format.h"
#include "core/analysis/rule_registry.h"
#include "core/error.h"
#include "core/model/trace_file.h"
#include "tests/core/testing/gz_fixture.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

std::string nsysDir() { return std::string(GPUSCOPE_FIXTURES) + "/nsys/"; }

using testing::readWholeFile;

// Runs rule SPEC on the nsys export tests/fixtures/nsys/TRACE.sqlite.
Finding runOnNsysExport(const std::string& trace, const std::string& spec) {
  Database db = openTraceFile(nsysDir() + trace + ".sqlite");
  return runAnalysis(db, {parseRuleRequest(spec)}).front();
}

class NsysRuleGolden : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(NsysRuleGolden, CsvIsByteIdenticalToNsysAnalyze) {
  const auto& [trace, rule] = GetParam();
  std::string expected = readWholeFile(nsysDir() + trace + "_analyze_" + rule + ".csv");
  EXPECT_EQ(findingCsv(runOnNsysExport(trace, rule)), expected);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, NsysRuleGolden,
                         ::testing::Combine(::testing::Values("transpose", "loader2"),
                                            ::testing::Values("cuda_memcpy_async", "cuda_memcpy_sync",
                                                              "cuda_memset_sync", "cuda_api_sync", "gpu_gaps",
                                                              "gpu_time_util", "dx12_mem_ops")),
                         [](const auto& param) { return std::get<0>(param.param) + "_" + std::get<1>(param.param); });

// The bottleneck-class programs of tests/fixtures/classes, each with nsys's own analyze output beside it.
class NsysRuleClassGolden : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(NsysRuleClassGolden, CsvIsByteIdenticalToNsysAnalyze) {
  const auto& [trace, rule] = GetParam();
  std::string dir = std::string(GPUSCOPE_FIXTURES) + "/classes/" + trace + "/";
  Database db = openTraceFile(testing::classFixture(trace, "nsys"));
  EXPECT_EQ(findingCsv(runAnalysis(db, {parseRuleRequest(rule)}).front()),
            readWholeFile(dir + "nsys_analyze_" + rule + ".csv"));
}

INSTANTIATE_TEST_SUITE_P(Classes, NsysRuleClassGolden,
                         ::testing::Combine(::testing::Values("loader0", "loader2", "fp32", "bf16", "launch", "sync",
                                                              "gemm", "graph", "transpose"),
                                            ::testing::Values("cuda_memcpy_async", "cuda_memcpy_sync",
                                                              "cuda_memset_sync", "cuda_api_sync", "gpu_gaps",
                                                              "gpu_time_util", "dx12_mem_ops")),
                         [](const auto& param) { return std::get<0>(param.param) + "_" + std::get<1>(param.param); });

TEST(NsysRules, EveryRuleRunsByDefaultInNsysOrder) {
  std::vector<std::string> ids;
  for (const AnalysisRule* rule : analysisRules()) ids.emplace_back(rule->id());
  std::vector<std::string> nsys{"cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync", "cuda_api_sync",
                                "gpu_gaps",          "gpu_time_util",    "dx12_mem_ops"};
  ASSERT_GE(ids.size(), nsys.size());
  EXPECT_EQ(std::vector<std::string>(ids.begin(), ids.begin() + 7), nsys);
}

// loader2 has a 105,079,528 ns gap: a threshold of exactly that does not report it (strictly greater).
TEST(NsysRules, GapThresholdIsStrict) {
  auto startsOf = [](const Finding& finding) {
    std::vector<int64_t> starts;
    for (const auto& row : finding.evidence.rows) starts.push_back(std::get<int64_t>(row[2]));
    return starts;
  };
  Finding equal = runOnNsysExport("loader2", "gpu_gaps:gap=105.079528:rows=-1");
  Finding below = runOnNsysExport("loader2", "gpu_gaps:gap=105.079527:rows=-1");
  EXPECT_EQ(equal.evidence.rows.size(), 3u);
  EXPECT_EQ(below.evidence.rows.size(), 4u);
  EXPECT_EQ(startsOf(below).back(), 12514347403);
  // Rows come longest first and are numbered in that order.
  EXPECT_EQ(std::get<int64_t>(below.evidence.rows[0][0]), 1);
  EXPECT_EQ(std::get<int64_t>(below.evidence.rows[0][1]), 5278804077);
  EXPECT_EQ(below.ranges.size(), 4u);
  EXPECT_EQ(below.ranges[0].start, 7235425692);
  EXPECT_EQ(below.ranges[0].end, 7235425692 + 5278804077);
}

// 54 pageable async copies; nsys prints 50 by default, the longest first, ties by start.
TEST(NsysRules, RowsLimitAndTieOrder) {
  EXPECT_EQ(runOnNsysExport("loader2", "cuda_memcpy_async").evidence.rows.size(), 50u);
  Finding all = runOnNsysExport("loader2", "cuda_memcpy_async:rows=-1");
  ASSERT_EQ(all.evidence.rows.size(), 54u);
  for (size_t i = 1; i < all.evidence.rows.size(); ++i) {
    int64_t previous = std::get<int64_t>(all.evidence.rows[i - 1][0]);
    int64_t duration = std::get<int64_t>(all.evidence.rows[i][0]);
    ASSERT_GE(previous, duration);
    if (previous == duration) {
      EXPECT_LT(std::get<int64_t>(all.evidence.rows[i - 1][1]), std::get<int64_t>(all.evidence.rows[i][1]));
    }
  }
  EXPECT_EQ(runOnNsysExport("loader2", "cuda_memcpy_async:rows=3").evidence.rows.size(), 3u);
  EXPECT_EQ(runOnNsysExport("loader2", "cuda_memcpy_async:rows=0").evidence.rows.size(), 0u);
}

// transpose's 30 chunks are used 77.7% at the least; chunks 16 (77.7%) and 17 (87.5%) are adjacent,
// so with a 90% threshold they are one stretch.
TEST(NsysRules, UtilizationThresholdIsStrictAndAdjacentChunksMerge) {
  EXPECT_TRUE(runOnNsysExport("transpose", "gpu_time_util:threshold=77.7").evidence.rows.empty());
  Finding low = runOnNsysExport("transpose", "gpu_time_util:threshold=80");
  ASSERT_EQ(low.evidence.rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(low.evidence.rows[0][2]), 1150371);
  Finding merged = runOnNsysExport("transpose", "gpu_time_util:threshold=90");
  ASSERT_EQ(merged.evidence.rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(merged.evidence.rows[0][2]), 2 * 1150371);
  EXPECT_EQ(std::get<int64_t>(merged.evidence.rows[0][3]), 778189810 + 16 * 1150371);
  double inUse = std::get<double>(merged.evidence.rows[0][1]);
  EXPECT_GT(inUse, 77.7);
  EXPECT_LT(inUse, 87.6);
}

TEST(NsysRules, StartEndAndNvtxNarrowTheWindow) {
  // No synchronization lies inside transpose's first "naive" range; an event is in a window when it
  // starts and ends inside it.
  EXPECT_TRUE(runOnNsysExport("transpose", "cuda_api_sync:nvtx=naive").evidence.rows.empty());
  Finding late = runOnNsysExport("transpose", "cuda_api_sync:start=798171894");
  EXPECT_EQ(late.evidence.rows.size(), 3u);
  Finding early = runOnNsysExport("transpose", "cuda_api_sync:end=806709444");  // the second one ends exactly there
  EXPECT_EQ(early.evidence.rows.size(), 2u);
  EXPECT_EQ(runOnNsysExport("transpose", "cuda_api_sync:end=806709443").evidence.rows.size(), 1u);
  // The "upload" range holds the pageable upload: the synchronous memcpy rule sees just that one.
  Finding upload = runOnNsysExport("transpose", "cuda_memcpy_sync:nvtx=upload");
  ASSERT_EQ(upload.evidence.rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(upload.evidence.rows[0][1]), 778189810);
}

TEST(NsysRules, BadRequestsGetOneSentence) {
  EXPECT_THROW(parseRuleRequest("gpu_gap"), TraceError);
  EXPECT_THROW(parseRuleRequest("gpu_gaps:gapp=1"), TraceError);
  EXPECT_THROW(parseRuleRequest("gpu_gaps:gap"), TraceError);
  EXPECT_THROW(runOnNsysExport("loader2", "gpu_gaps:gap=soon"), TraceError);
  EXPECT_THROW(runOnNsysExport("loader2", "cuda_api_sync:rows=-2"), TraceError);
  EXPECT_THROW(runOnNsysExport("loader2", "cuda_api_sync:nvtx=no-such-range"), TraceError);
  EXPECT_THROW(runOnNsysExport("loader2", "cuda_api_sync:start=10:end=5"), TraceError);
  try {
    parseRuleRequest("gpu_gaps:gapp=1");
  } catch (const TraceError& error) {
    EXPECT_EQ(std::string(error.what()),
              "Rule gpu_gaps has no option 'gapp'; its options are rows, start, end, nvtx, gap.");
  }
}

TEST(NsysRules, JsonCarriesEvidenceAndRanges) {
  Finding finding = runOnNsysExport("transpose", "cuda_api_sync");
  auto json = findingJson(finding);
  EXPECT_EQ(json["id"], "cuda_api_sync");
  EXPECT_EQ(json["found"], true);
  EXPECT_EQ(json["evidence"]["rows"].size(), 3u);
  ASSERT_EQ(json["ranges"].size(), 3u);
  EXPECT_EQ(json["ranges"][0]["start"], 798171894);
  EXPECT_EQ(json["ranges"][0]["end"], 798171894 + 7668285);
  EXPECT_EQ(json["ranges"][0]["tid"], 469);
}

}  // namespace
}  // namespace gpuscope
