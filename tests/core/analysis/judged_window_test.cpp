// The window the headline verdict judges (judged_window.h): NVTX steps past the first, an epoch's steps,
// the repeated kernel where no ranges mark steps, and the start-up set apart and summarized. Built on
// synthetic runs whose timings make each answer exact.
#include "core/analysis/verdict/judged_window.h"

#include <gtest/gtest.h>

#include "core/analysis/verdict/verdict.h"
#include "core/model/trace_file.h"
#include "tests/core/analysis/synthetic_run.h"
#include "tests/core/testing/time_units.h"

namespace gpuscope {
namespace {

using testing::kMs;
using testing::kUs;
using testing::SyntheticRun;

Verdict headline(const std::string& path) {
  Database db = openTraceFile(path);
  return runVerdict(db, loadVerdictInputs(db));
}

// 500 ms of start-up (a long cudaMalloc, then Python), then STEPS ranges of 10 ms, each launching one
// 9 ms kernel at its start: the GPU is busy 90% of the steady state and idle through the start-up.
void addStepsAfterStartup(SyntheticRun& run, int steps, bool inEpoch) {
  run.call("cudaMalloc_v3020", kMs, 200 * kMs);
  TimeNs first = 501 * kMs;
  if (inEpoch) run.range("epoch 0", first, first + steps * 10 * kMs);
  for (int i = 0; i < steps; ++i) {
    TimeNs t = first + i * 10 * kMs;
    run.range("step " + std::to_string(i), t, t + 10 * kMs);
    run.launch("gemm", t, 10 * kUs, t + 20 * kUs, 9 * kMs);
  }
}

TEST(JudgedWindow, StepNamesShareOneGroupName) {
  EXPECT_EQ(stepGroupName("step 12"), "step N");
  EXPECT_EQ(stepGroupName("ProfilerStep#3"), "ProfilerStep#N");
  EXPECT_EQ(stepGroupName("layer 2 block 10"), "layer N block N");
  EXPECT_EQ(stepGroupName("step"), "step");
}

TEST(JudgedWindow, StepsPastTheFirstAreJudgedAndStartUpIsSetApart) {
  SyntheticRun run("steps");
  addStepsAfterStartup(run, 10, false);
  Verdict verdict = headline(run.finish());
  ASSERT_TRUE(verdict.judged);
  const JudgedWindow& judged = *verdict.judged;
  EXPECT_EQ(judged.source, JudgedWindow::Source::NvtxSteps);
  EXPECT_EQ(judged.window.start, 511 * kMs);  // step 1's start
  // The last step ends at 601 ms, after its kernel (591.02 ms + 9 ms).
  EXPECT_EQ(judged.window.end, 601 * kMs);
  EXPECT_EQ(judged.startup.start, kMs);
  EXPECT_EQ(judged.startup.end, 511 * kMs);
  EXPECT_EQ(judged.reason,
            "NVTX ranges 'step 1' to 'step 9' (9 of 10 named 'step N', the first set apart as warm-up) launched "
            "90.0% of the GPU time");
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute) << verdictSentence(verdict);
  // Start-up: 510 ms, 200 of them in cudaMalloc, 9 ms of GPU work (step 0's kernel).
  EXPECT_EQ(verdict.startup.hostCudaNs, 200 * kMs + 10 * kUs);
  EXPECT_EQ(verdict.startup.hostOutsideNs, 510 * kMs - verdict.startup.hostCudaNs);
  EXPECT_EQ(verdict.startup.gpuBusyNs, 9 * kMs);
  ASSERT_FALSE(verdict.startup.longestCalls.empty());
  EXPECT_EQ(verdict.startup.longestCalls.front().first, "cudaMalloc_v3020");
  std::string line = startupSentence(verdict.startup, verdict.evidence.hostThread);
  EXPECT_EQ(line.rfind("Start-up set apart: 510.000 ms before the judged window", 0), 0u) << line;
}

TEST(JudgedWindow, TwoStepsAreBothJudged) {
  SyntheticRun run("two_steps");
  addStepsAfterStartup(run, 2, false);
  Verdict verdict = headline(run.finish());
  ASSERT_TRUE(verdict.judged);
  EXPECT_EQ(verdict.judged->window.start, 501 * kMs);
  EXPECT_NE(verdict.judged->reason.find("(2 of 2 named 'step N')"), std::string::npos) << verdict.judged->reason;
}

TEST(JudgedWindow, AnEpochGivesWayToItsSteps) {
  SyntheticRun run("epoch");
  addStepsAfterStartup(run, 6, true);
  Verdict verdict = headline(run.finish());
  ASSERT_TRUE(verdict.judged);
  EXPECT_EQ(verdict.judged->window.start, 511 * kMs);
  EXPECT_NE(verdict.judged->reason.find("5 of 6 named 'step N'"), std::string::npos) << verdict.judged->reason;
}

// Ranges that launch less than half the GPU time do not make the steady state.
TEST(JudgedWindow, RangesWithLittleGpuWorkGiveWayToTheRepeatedKernel) {
  SyntheticRun run("few");
  run.call("cudaMalloc_v3020", kMs, 100 * kMs);
  run.range("setup", kMs, 102 * kMs);
  run.launch("init", 101 * kMs, 10 * kUs, 101 * kMs + 20 * kUs, kMs);
  for (int i = 0; i < 5; ++i) run.launch("gemm", 200 * kMs + i * 10 * kMs, 10 * kUs, 200 * kMs + i * 10 * kMs, 8 * kMs);
  Verdict verdict = headline(run.finish());
  ASSERT_TRUE(verdict.judged);
  EXPECT_EQ(verdict.judged->source, JudgedWindow::Source::RepeatedKernel);
  EXPECT_EQ(verdict.judged->window.start, 210 * kMs);  // the second gemm's launch
  EXPECT_EQ(verdict.judged->window.end, 248 * kMs);
  EXPECT_NE(verdict.judged->reason.find("second of 5 instances of the most repeated kernel, gemm"), std::string::npos)
      << verdict.judged->reason;
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute) << verdictSentence(verdict);
}

TEST(JudgedWindow, WithoutStepsOrRepeatsTheWholeRunIsJudged) {
  SyntheticRun run("single");
  run.launch("once", kMs, 10 * kUs, 2 * kMs, kMs);
  Verdict verdict = headline(run.finish());
  ASSERT_TRUE(verdict.judged);
  EXPECT_EQ(verdict.judged->source, JudgedWindow::Source::WholeRun);
  EXPECT_EQ(verdict.judged->window.start, 2 * kMs);
  EXPECT_EQ(verdict.judged->window.end, 3 * kMs);
}

TEST(JudgedWindow, AChosenWindowIsJudgedAsGiven) {
  SyntheticRun run("chosen");
  addStepsAfterStartup(run, 10, false);
  std::string path = run.finish();
  Database db = openTraceFile(path);
  VerdictInputs inputs = loadVerdictInputs(db);
  // Only the start-up: the GPU is idle while the host is in cudaMalloc or outside CUDA.
  Verdict verdict = runVerdictOver(db, inputs, {kMs, 500 * kMs}, "--range 0ms:499ms");
  ASSERT_TRUE(verdict.judged);
  EXPECT_EQ(verdict.judged->source, JudgedWindow::Source::User);
  EXPECT_EQ(verdict.judged->reason, "--range 0ms:499ms");
  EXPECT_EQ(verdict.evidence.wallNs, 499 * kMs);
  EXPECT_EQ(verdict.kind, BottleneckClass::Cpu) << verdictSentence(verdict);
  EXPECT_EQ(traceStartNs(db), kMs);
}

TEST(Verdict, CopiesAndMemsetsMakeATransferClassNotCompute) {
  VerdictEvidence e;
  e.wallNs = 1000;
  e.hostThread = "main";
  e.gpuBusyNs = 900;
  e.kernelBusyNs = 100;
  e.copyBusyNs = 500;
  e.memsetBusyNs = 300;
  EXPECT_EQ(classify(e), BottleneckClass::Transfer);
  e.kernelBusyNs = 500;
  e.copyBusyNs = 300;
  e.memsetBusyNs = 100;
  EXPECT_EQ(classify(e), BottleneckClass::GpuCompute);
  // The GPU mostly idle, the host blocked in synchronous copies most of the window.
  VerdictEvidence blocked;
  blocked.wallNs = 1000;
  blocked.hostThread = "main";
  blocked.gpuBusyNs = 200;
  blocked.copyBusyNs = 200;
  blocked.idleSyncNs = 700;
  blocked.hostSyncNs = 900;
  blocked.hostCopyNs = 600;
  EXPECT_EQ(classify(blocked), BottleneckClass::Transfer);
  blocked.hostCopyNs = 400;
  EXPECT_EQ(classify(blocked), BottleneckClass::Synchronization);
}

}  // namespace
}  // namespace gpuscope
