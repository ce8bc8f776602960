// Issue 26's verdict fixtures (tests/fixtures/verdict/README.md): five programs with a start-up before
// their work, each recorded by gpuscope and by nsys on an H200. The headline verdict judges the steady
// state, so each program gets the class of its work on both tools' files, the start-up is set apart, and
// the first finding is the one with the most time at stake.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/analysis/finding_format.h"
#include "core/analysis/finding_stake.h"
#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/verdict.h"
#include "core/analysis/verdict/window_figures.h"
#include "core/model/trace_file.h"
#include "tests/core/testing/gz_fixture.h"

namespace gpuscope {
namespace {

using testing::verdictFixture;

struct Judged {
  Verdict verdict;
  std::vector<Finding> findings;  // found ones, ordered by time at stake in the judged window
  WindowFigures figures;
};

Judged judge(const std::string& program, const std::string& recorder) {
  Database db = openTraceFile(verdictFixture(program, recorder));
  VerdictInputs inputs = loadVerdictInputs(db);
  Judged judged{runVerdict(db, inputs), {}, {}};
  judged.figures = windowFigures(db, inputs, judged.verdict);
  std::vector<RuleRequest> requests;
  for (const AnalysisRule* rule : analysisRules()) requests.push_back(parseRuleRequest(std::string(rule->id())));
  std::vector<Finding> findings = runAnalysis(db, requests);
  measureStakes(db, requests, findings, judged.verdict.judged->window);
  for (Finding& finding : findings) {
    if (finding.found()) judged.findings.push_back(std::move(finding));
  }
  orderByStake(judged.findings);
  return judged;
}

bool hasFinding(const Judged& judged, const std::string& rule) {
  return std::any_of(judged.findings.begin(), judged.findings.end(),
                     [&rule](const Finding& finding) { return finding.ruleId == rule; });
}

class VerdictPrograms : public ::testing::TestWithParam<std::string> {};

TEST_P(VerdictPrograms, Fp32GemmLoopIsGpuComputeWithTheFp32FindingFirst) {
  Judged judged = judge("fp32_gemm", GetParam());
  const Verdict& v = judged.verdict;
  EXPECT_EQ(v.kind, BottleneckClass::GpuCompute) << verdictSentence(v);
  ASSERT_TRUE(v.judged);
  EXPECT_EQ(v.judged->source, JudgedWindow::Source::NvtxSteps) << v.judged->reason;
  EXPECT_NE(v.judged->reason.find("'step 1' to 'step 9' (9 of 10 named 'step N'"), std::string::npos)
      << v.judged->reason;
  EXPECT_GT(v.startup.span.length(), 0);  // cuBLAS's start-up and the warm-up are set apart
  ASSERT_FALSE(judged.findings.empty());
  EXPECT_EQ(judged.findings.front().ruleId, "fp32_gemm");
  EXPECT_EQ(judged.findings.front().severity, Severity::Critical);
}

TEST_P(VerdictPrograms, Bf16GemmLoopIsGpuComputeWithoutTheFp32Finding) {
  Judged judged = judge("bf16_gemm", GetParam());
  EXPECT_EQ(judged.verdict.kind, BottleneckClass::GpuCompute) << verdictSentence(judged.verdict);
  EXPECT_GT(judged.verdict.evidence.share(judged.verdict.evidence.kernelBusyNs), 0.9);
  EXPECT_FALSE(hasFinding(judged, "fp32_gemm"));
}

TEST_P(VerdictPrograms, NumpyPreparedBatchesAreCpuBound) {
  Judged judged = judge("numpy_batch", GetParam());
  const VerdictEvidence& e = judged.verdict.evidence;
  EXPECT_EQ(judged.verdict.kind, BottleneckClass::Cpu) << verdictSentence(judged.verdict);
  EXPECT_GT(e.share(e.idleCpuNs), 0.8);
  ASSERT_FALSE(judged.findings.empty());
  // The GPU's low use puts a little more time at stake than its waits (its unused time holds the gaps under
  // 1 ms too), so it comes first; the waits are the critical finding that names the cause.
  auto critical = std::find_if(judged.findings.begin(), judged.findings.end(),
                               [](const Finding& finding) { return finding.severity == Severity::Critical; });
  ASSERT_NE(critical, judged.findings.end());
  EXPECT_EQ(critical->ruleId, "gpu_waits_on_host");
  for (size_t i = 1; i < judged.findings.size(); ++i)
    EXPECT_LE(judged.findings[i].atStakeNs, judged.findings[i - 1].atStakeNs) << judged.findings[i].ruleId;
}

TEST_P(VerdictPrograms, TinyKernelLoopIsCudaApiBound) {
  Judged judged = judge("tiny_kernels", GetParam());
  EXPECT_EQ(judged.verdict.kind, BottleneckClass::CudaApi) << verdictSentence(judged.verdict);
  EXPECT_TRUE(hasFinding(judged, "launch_bound"));
}

TEST_P(VerdictPrograms, MemsetAndPageableCopyLoopIsTransferBound) {
  Judged judged = judge("transfer_loop", GetParam());
  const VerdictEvidence& e = judged.verdict.evidence;
  EXPECT_EQ(judged.verdict.kind, BottleneckClass::Transfer) << verdictSentence(judged.verdict);
  EXPECT_GT(e.transferShare(), 0.9);
  EXPECT_LT(e.share(e.kernelBusyNs), 0.05);
  EXPECT_EQ(e.gpuBusyNs, e.kernelBusyNs + e.copyBusyNs + e.memsetBusyNs);
  EXPECT_NE(verdictSentence(judged.verdict).find("blocking_copies"), std::string::npos);
  EXPECT_TRUE(hasFinding(judged, "blocking_copies"));
  EXPECT_TRUE(hasFinding(judged, "cuda_memset_sync"));
}

// The three figures of point 3 measure different things; on the tiny-kernel loop HTA's microsecond grid
// all but erases kernels of a microsecond, so its share is far below the verdict's busy share, and the
// Stats kernel time (durations summed) can only be at least the kernels' busy time.
TEST_P(VerdictPrograms, TheThreeFiguresOfAWindowAgreeWhereTheirDefinitionsDo) {
  Judged judged = judge("tiny_kernels", GetParam());
  const WindowFigures& f = judged.figures;
  const VerdictEvidence& e = judged.verdict.evidence;
  EXPECT_EQ(f.gpuBusyNs, e.gpuBusyNs);
  EXPECT_GE(f.statsKernelNs, e.kernelBusyNs);
  EXPECT_GT(f.htaSpanUs, 0);
  double hta = static_cast<double>(f.htaComputeUs) / static_cast<double>(f.htaSpanUs);
  EXPECT_LT(hta, e.share(e.gpuBusyNs));
  std::string sentence = windowFiguresSentence(f);
  EXPECT_NE(sentence.find("HTA computing"), std::string::npos);
  EXPECT_NE(sentence.find("cuda_gpu_kern_sum"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Recorders, VerdictPrograms, ::testing::Values("gpuscope", "nsys"));

// nsys's cuda_memset_sync on the transfer loop: our CSV is byte for byte what nsys analyze printed (its
// header says "Memory Kind").
TEST(VerdictPrograms, MemsetSyncCsvMatchesNsysOnTheTransferLoop) {
  Database db = openTraceFile(verdictFixture("transfer_loop", "nsys"));
  Finding finding = runAnalysis(db, {parseRuleRequest("cuda_memset_sync")}).front();
  std::ifstream file(std::string(GPUSCOPE_FIXTURES) + "/verdict/transfer_loop/nsys_analyze_cuda_memset_sync.csv",
                     std::ios::binary);
  std::ostringstream expected;
  expected << file.rdbuf();
  ASSERT_FALSE(expected.str().empty());
  EXPECT_EQ(findingCsv(finding), expected.str());
}

}  // namespace
}  // namespace gpuscope
