// The verdict and findings on the bottleneck-class fixtures recorded on an H100 (tests/fixtures/classes/
// README.md), each recorded by gpuscope and by nsys: both files must give the same answer. The PyTorch
// programs spend seconds importing and warming up before their steps, so where the class lives in the
// steps the test looks at the steady part: from the second step's start to the end of the GPU work.
#include <gtest/gtest.h>

#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/verdict.h"
#include "core/model/trace_file.h"
#include "core/stats/nvtx_ranges.h"
#include "tests/core/testing/gz_fixture.h"

namespace gpuscope {
namespace {

using testing::classFixture;

Verdict runVerdictOf(const std::string& path) {
  Database db = openTraceFile(path);
  return runVerdict(db, loadVerdictInputs(db));
}

// From the start of NVTX range "step 1" to the end of the GPU work.
Verdict steadyVerdictOf(const std::string& path) {
  Database db = openTraceFile(path);
  VerdictInputs inputs = loadVerdictInputs(db);
  TimeNs start = INT64_MAX;
  for (const NvtxRange& range : loadNvtxRanges(db)) {
    if (range.name == ":step 1") start = std::min(start, range.start);
  }
  EXPECT_NE(start, INT64_MAX) << path << " has no step 1";
  return windowVerdict(inputs, {{start, inputs.activity.last}});
}

Finding finding(const std::string& path, const std::string& rule) {
  Database db = openTraceFile(path);
  return runAnalysis(db, {parseRuleRequest(rule)}).front();
}

class ClassFixtures : public ::testing::TestWithParam<std::string> {};

TEST_P(ClassFixtures, DataLoadersAreCpuBoundAndStarveTheGpu) {
  for (const char* program : {"loader0", "loader2"}) {
    std::string path = classFixture(program, GetParam());
    Verdict verdict = runVerdictOf(path);
    EXPECT_EQ(verdict.kind, BottleneckClass::Cpu) << path << ": " << verdictSentence(verdict);
    EXPECT_GT(verdict.evidence.share(verdict.evidence.idleCpuNs), 0.9);
    Finding starving = finding(path, "gpu_waits_on_host");
    EXPECT_TRUE(starving.found()) << path;
    EXPECT_EQ(starving.severity, Severity::Critical);
  }
}

TEST_P(ClassFixtures, Fp32TrainingIsGpuBoundOnFfmaGemmsAndBf16HasNoSuchFinding) {
  std::string fp32 = classFixture("fp32", GetParam());
  Verdict steady = steadyVerdictOf(fp32);
  EXPECT_EQ(steady.kind, BottleneckClass::GpuCompute) << verdictSentence(steady);
  // The headline judges the steps too now, not PyTorch's start-up.
  Verdict headline = runVerdictOf(fp32);
  EXPECT_EQ(headline.kind, BottleneckClass::GpuCompute) << verdictSentence(headline);
  ASSERT_TRUE(headline.judged);
  EXPECT_EQ(headline.judged->source, JudgedWindow::Source::NvtxSteps) << headline.judged->reason;
  Finding gemms = finding(fp32, "fp32_gemm");
  ASSERT_TRUE(gemms.found());
  EXPECT_EQ(gemms.severity, Severity::Critical);  // they take over 30% of the kernel time
  EXPECT_GT(std::get<double>(gemms.evidence.rows[0][0]), 30.0);
  EXPECT_FALSE(finding(classFixture("bf16", GetParam()), "fp32_gemm").found());
}

TEST_P(ClassFixtures, TinyKernelLoopIsCudaApiBoundAndLaunchBound) {
  std::string path = classFixture("launch", GetParam());
  Verdict verdict = runVerdictOf(path);
  EXPECT_EQ(verdict.kind, BottleneckClass::CudaApi) << verdictSentence(verdict);
  EXPECT_LT(verdict.evidence.share(verdict.evidence.gpuBusyNs), 0.15);
  EXPECT_TRUE(finding(path, "launch_bound").found());
}

TEST_P(ClassFixtures, BigGemmLoopIsGpuComputeBound) {
  std::string path = classFixture("gemm", GetParam());
  Verdict verdict = runVerdictOf(path);
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute) << verdictSentence(verdict);
  EXPECT_GT(steadyVerdictOf(path).evidence.share(steadyVerdictOf(path).evidence.gpuBusyNs), 0.99);
}

// workloads/sync_loop.cu: a short kernel, cudaDeviceSynchronize and a 4-byte synchronous copy, 5,000 times.
// The host spends most of the run in those two calls while the GPU waits for the next launch.
TEST_P(ClassFixtures, AKernelThenSynchronizeLoopIsSynchronizationBound) {
  std::string path = classFixture("sync", GetParam());
  for (const Verdict& verdict : {runVerdictOf(path), steadyVerdictOf(path)}) {
    const VerdictEvidence& e = verdict.evidence;
    EXPECT_EQ(verdict.kind, BottleneckClass::Synchronization) << verdictSentence(verdict);
    EXPECT_GT(e.share(e.idleSyncNs), 0.5) << verdictSentence(verdict);
    EXPECT_LT(e.share(e.gpuBusyNs), 0.2);
  }
  EXPECT_FALSE(finding(path, "cuda_api_sync").evidence.rows.empty());
}

INSTANTIATE_TEST_SUITE_P(Recorders, ClassFixtures, ::testing::Values("gpuscope", "nsys"));

TEST(ClassFixtures, TransposeWithMetricsHasTheUncoalescedNaiveKernel) {
  Finding access = finding(classFixture("transpose", "gpuscope"), "memory_access");
  ASSERT_EQ(access.evidence.rows.size(), 1u);
  EXPECT_EQ(std::get<std::string>(access.evidence.rows[0][8]).rfind("transposeNaive", 0), 0u);
}

}  // namespace
}  // namespace gpuscope
