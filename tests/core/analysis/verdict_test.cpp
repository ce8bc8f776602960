// The bottleneck verdict: its interval maths, its thresholds, and the class it gives small synthetic runs
// built for each class and the real fixtures (a DataLoader without workers is CPU bound; the transpose's
// kernels are memory bound by their metrics).
#include "core/analysis/verdict/verdict.h"

#include <gtest/gtest.h>

#include "core/analysis/verdict/verdict_format.h"
#include "core/identity/cuda_call_kind.h"
#include "core/model/interval_set.h"
#include "core/model/trace_file.h"
#include "tests/core/analysis/synthetic_run.h"
#include "tests/core/testing/test_files.h"
#include "tests/core/testing/time_units.h"

namespace gpuscope {
namespace {

using testing::fixturePath;
using testing::kMs;
using testing::kUs;
using testing::SyntheticRun;

Verdict verdictOf(const std::string& path) {
  Database db = openTraceFile(path);
  return runVerdict(db, loadVerdictInputs(db));
}

TEST(IntervalSet, MergesOverlapsAndMeasuresWindows) {
  IntervalSet set({{30, 40}, {0, 10}, {5, 15}, {50, 50}, {60, 55}});
  ASSERT_EQ(set.intervals().size(), 2u);
  EXPECT_EQ(set.intervals()[0].end, 15);
  EXPECT_EQ(set.length(), 25);
  EXPECT_EQ(set.lengthWithin(10, 35), 10);
  auto gaps = set.gapsWithin(-5, 45);
  ASSERT_EQ(gaps.size(), 3u);
  EXPECT_EQ(gaps[0].start, -5);
  EXPECT_EQ(gaps[1].start, 15);
  EXPECT_EQ(gaps[1].end, 30);
  EXPECT_EQ(gaps[2].start, 40);
}

TEST(CudaCallKind, SynchronizingCallsAreTheWaitsAndTheSynchronousCopies) {
  EXPECT_TRUE(isSynchronizingCall("cudaDeviceSynchronize_v3020"));
  EXPECT_TRUE(isSynchronizingCall("cudaStreamSynchronize_v3020"));
  EXPECT_TRUE(isSynchronizingCall("cudaEventSynchronize_v3020"));
  EXPECT_TRUE(isSynchronizingCall("cuCtxSynchronize"));
  EXPECT_TRUE(isSynchronizingCall("cudaMemcpy_v3020"));
  EXPECT_TRUE(isSynchronizingCall("cuMemcpyDtoH_v2"));
  EXPECT_FALSE(isSynchronizingCall("cudaMemcpyAsync_v3020"));
  EXPECT_FALSE(isSynchronizingCall("cudaMemsetAsync_v3020"));
  EXPECT_FALSE(isSynchronizingCall("cudaLaunchKernel_v7000"));
  EXPECT_FALSE(isSynchronizingCall("cudaStreamWaitEvent_v3020"));
}

VerdictEvidence evidence(TimeNs gpu, TimeNs api, TimeNs sync, TimeNs cpu) {
  VerdictEvidence e;
  e.wallNs = 1000;
  e.gpuBusyNs = gpu;
  e.idleApiNs = api;
  e.idleSyncNs = sync;
  e.idleCpuNs = cpu;
  e.hostThread = "main";
  return e;
}

TEST(Classify, GpuBoundFromHalfTheTimeThenWhatTheGpuWaitedOnMost) {
  EXPECT_EQ(classify(evidence(500, 100, 300, 100)), BottleneckClass::GpuCompute);
  EXPECT_EQ(classify(evidence(499, 100, 301, 100)), BottleneckClass::Synchronization);
  EXPECT_EQ(classify(evidence(300, 500, 100, 200)), BottleneckClass::CudaApi);
  EXPECT_EQ(classify(evidence(100, 200, 100, 600)), BottleneckClass::Cpu);
  VerdictEvidence none;
  EXPECT_EQ(classify(none), BottleneckClass::None);
}

TEST(Classify, MemoryWhenMetricsPutHalfTheKernelTimeUnderAMemoryRoof) {
  VerdictEvidence e = evidence(900, 10, 10, 10);
  e.kernelNs = 800;
  e.memoryBoundKernelNs = 400;
  EXPECT_EQ(classify(e), BottleneckClass::Memory);
  e.memoryBoundKernelNs = 399;
  EXPECT_EQ(classify(e), BottleneckClass::GpuCompute);
}

// 1000 kernels of 2 us, each behind a 5 us launch call: the GPU idles while the host launches.
std::string launchBoundRun() {
  SyntheticRun run("launch_bound");
  for (int i = 0; i < 1000; ++i) {
    TimeNs t = kMs + i * 6 * kUs;
    run.launch("vectorAdd", t, 5 * kUs, t + 6 * kUs, 2 * kUs);
  }
  return run.finish();
}

TEST(Verdict, LaunchBoundLoopIsCudaApiBound) {
  Verdict verdict = verdictOf(launchBoundRun());
  EXPECT_EQ(verdict.kind, BottleneckClass::CudaApi) << verdictSentence(verdict);
  // Each 6 us: the kernel runs 2, the GPU waits 3 while the next launch call runs and 1 outside it.
  const VerdictEvidence& e = verdict.evidence;
  EXPECT_NEAR(e.share(e.gpuBusyNs), 2.0 / 6, 0.01);
  EXPECT_NEAR(e.share(e.idleApiNs), 3.0 / 6, 0.01);
  EXPECT_NEAR(e.share(e.idleCpuNs), 1.0 / 6, 0.01);
  EXPECT_EQ(e.idleSyncNs, 0);
  EXPECT_NEAR(e.share(e.hostApiNs), 5.0 / 6, 0.01);
  EXPECT_EQ(e.gpuBusyNs + e.idleApiNs + e.idleCpuNs + e.idleSyncNs, e.wallNs);
  EXPECT_EQ(verdict.evidence.kernels, 1000u);
  EXPECT_EQ(verdict.evidence.hostThread, "train (pid 7, tid 7)");
}

// A tiny kernel, then cudaDeviceSynchronize that returns 16 us after it: the queue runs dry every time.
TEST(Verdict, SynchronizeAfterEveryKernelIsSynchronizationBound) {
  SyntheticRun run("sync_bound");
  for (int i = 0; i < 500; ++i) {
    TimeNs t = kMs + i * 26 * kUs;
    run.launch("tiny", t, 5 * kUs, t + 6 * kUs, 3 * kUs);
    run.call("cudaDeviceSynchronize_v3020", t + 5 * kUs, 20 * kUs);
  }
  Verdict verdict = verdictOf(run.finish());
  EXPECT_EQ(verdict.kind, BottleneckClass::Synchronization) << verdictSentence(verdict);
  // Of each 26 us the GPU idles 23: 17 while the host waits in cudaDeviceSynchronize (16 after the kernel,
  // 1 before the next starts), 5 while it launches, 1 between the calls.
  EXPECT_NEAR(verdict.evidence.share(verdict.evidence.idleSyncNs), 17.0 / 26, 0.01);
  EXPECT_NEAR(verdict.evidence.share(verdict.evidence.idleCpuNs), 1.0 / 26, 0.01);
  EXPECT_NEAR(verdict.evidence.share(verdict.evidence.idleApiNs), 5.0 / 26, 0.01);
  EXPECT_NEAR(verdict.evidence.share(verdict.evidence.hostSyncNs), 20.0 / 26, 0.01);
}

// Long GEMMs queued ahead, the host waiting in one synchronize: the GPU is the bottleneck.
std::string longGemmRun(const std::string& gemm) {
  SyntheticRun run("gemm");
  for (int i = 0; i < 100; ++i) {
    run.launch(gemm, kMs + i * 10 * kUs, 5 * kUs, 2 * kMs + i * 10 * kMs, 8 * kMs);
    run.launch("elementwise_kernel", kMs + i * 10 * kUs + 5 * kUs, 5 * kUs, 2 * kMs + i * 10 * kMs + 8 * kMs, 2 * kMs);
  }
  run.call("cudaDeviceSynchronize_v3020", 3 * kMs, 999 * kMs);
  return run.finish();
}

TEST(Verdict, LongGemmsAreGpuComputeBound) {
  Verdict verdict = verdictOf(longGemmRun("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_nn"));
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute) << verdictSentence(verdict);
  EXPECT_GT(verdict.evidence.share(verdict.evidence.gpuBusyNs), 0.99);
  EXPECT_FALSE(verdict.evidence.memoryBoundKernelNs.has_value());  // no metrics: nothing claimed
}

// A loading stretch with no CUDA call, then a compute stretch: one verdict per NVTX range name.
TEST(Verdict, ByNvtxGivesEachRangeNameItsOwnClass) {
  SyntheticRun run("nvtx");
  for (int step = 0; step < 3; ++step) {
    TimeNs t = step * 100 * kMs;
    run.range("load", t, t + 60 * kMs);
    run.range("compute", t + 60 * kMs, t + 100 * kMs);
    run.launch("ampere_sgemm_128x64_nn", t + 60 * kMs, 10 * kUs, t + 61 * kMs, 38 * kMs);
    run.call("cudaDeviceSynchronize_v3020", t + 61 * kMs, 38 * kMs);
  }
  std::string path = run.finish();
  Database db = openTraceFile(path);
  VerdictInputs inputs = loadVerdictInputs(db);
  auto ranges = nvtxVerdicts(db, inputs);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].name, "load");
  EXPECT_EQ(ranges[0].instances, 3u);
  EXPECT_EQ(ranges[0].verdict.kind, BottleneckClass::Cpu);
  EXPECT_EQ(ranges[0].verdict.evidence.wallNs, 180 * kMs);
  EXPECT_EQ(ranges[1].name, "compute");
  EXPECT_EQ(ranges[1].verdict.kind, BottleneckClass::GpuCompute);
  auto json = rangeVerdictJson(ranges[1]);
  EXPECT_EQ(json["range"], "compute");
  EXPECT_EQ(json["class"], "gpu_compute");
  EXPECT_DOUBLE_EQ(json["evidence"]["gpu_busy_share"].get<double>(), 0.95);
}

TEST(Verdict, EmptyTraceHasNoVerdict) {
  SyntheticRun run("empty");
  Verdict verdict = verdictOf(run.finish());
  EXPECT_EQ(verdict.kind, BottleneckClass::None);
  EXPECT_EQ(verdictJson(verdict)["class"], "none");
}

// workloads/loader.py 0: the main thread loads every batch itself while the GPU waits.
TEST(VerdictFixtures, DataLoaderWithoutWorkersIsCpuBound) {
  Verdict verdict = verdictOf(fixturePath("gpuscope/loader0.sqlite"));
  EXPECT_EQ(verdict.kind, BottleneckClass::Cpu) << verdictSentence(verdict);
  const VerdictEvidence& e = verdict.evidence;
  EXPECT_LT(e.share(e.gpuBusyNs), 0.1);
  EXPECT_GT(e.share(e.idleCpuNs), 0.5);
  // Steps 2 to 24 of its 24 "step" ranges are judged: of its 984 kernels, those of the first step and of
  // the evaluation after the last are set apart.
  EXPECT_EQ(e.kernels, 943u);
  EXPECT_NE(e.hostThread.find("python3"), std::string::npos);
}

// The transpose recorded with per-launch counters (its kernels serialized by the profiler): over the time
// its kernels ran, the GPU is busy and every kernel is under a memory roof, so the class is memory.
TEST(VerdictFixtures, TransposeKernelsAreMemoryBoundByTheirMetrics) {
  Database db = openTraceFile(fixturePath("gpuscope/transpose_roofline.sqlite"));
  VerdictInputs inputs = loadVerdictInputs(db);
  ASSERT_TRUE(inputs.hasMetrics);
  EXPECT_FALSE(inputs.memoryBoundNameIds.empty());
  auto kernels = inputs.activity.kernels;
  ASSERT_FALSE(kernels.empty());
  std::vector<TimeInterval> whileKernelsRan;
  for (const KernelSpan& kernel : kernels) whileKernelsRan.push_back({kernel.start, kernel.end});
  Verdict verdict = windowVerdict(inputs, whileKernelsRan);
  EXPECT_EQ(verdict.kind, BottleneckClass::Memory) << verdictSentence(verdict);
  EXPECT_GT(verdict.evidence.memoryBoundShare(), 0.5);
}

}  // namespace
}  // namespace gpuscope
