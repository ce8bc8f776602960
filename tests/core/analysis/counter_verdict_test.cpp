// The verdict with GPU metrics and no kernel metrics: memory against compute on the sampled counters, tensor-core
// use, and the device memory peak, each naming its source.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/analysis/verdict/verdict.h"
#include "core/analysis/verdict/verdict_format.h"
#include "core/db/sqlite_database.h"
#include "core/metrics/gpu_metric_names.h"
#include "tests/core/testing/metric_trace.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

constexpr TimeNs kOneMs = 1'000'000;

struct Counters {
  int64_t smIssue;
  int64_t tensor;
  int64_t dramRead;
  int64_t dramWrite;
};

// 100 ms of back-to-back 10 ms kernels, sampled at 1 kHz with constant counters: the verdict over it.
Verdict verdictWith(const std::string& name, Counters c) {
  std::string path = testing::processTempPath("counter_verdict", name + ".sqlite");
  std::vector<testing::SyntheticKernel> kernels;
  for (TimeNs t = 0; t < 100 * kOneMs; t += 10 * kOneMs) kernels.push_back({t + 1, t + 10 * kOneMs, "gemm"});
  auto constant = [](int64_t value) { return [value](TimeNs) { return value; }; };
  testing::writeMetricTrace(path, kernels,
                            {{gpu_metric::kSmsActive, constant(95)},
                             {gpu_metric::kSmIssue, constant(c.smIssue)},
                             {gpu_metric::kTensorActive, constant(c.tensor)},
                             {gpu_metric::kDramRead, constant(c.dramRead)},
                             {gpu_metric::kDramWrite, constant(c.dramWrite)}},
                            100 * kOneMs, kOneMs);
  Database db = Database::openReadOnly(path);
  Verdict verdict = windowVerdict(loadVerdictInputs(db), {{0, 100 * kOneMs}});
  std::filesystem::remove(path);
  return verdict;
}

TEST(CounterVerdict, DramAboveIssueIsMemoryBound) {
  Verdict verdict = verdictWith("memory", {10, 0, 30, 20});
  EXPECT_EQ(verdict.kind, BottleneckClass::Memory);
  ASSERT_TRUE(verdict.evidence.counters);
  EXPECT_EQ(verdict.evidence.counters->samples, 100u);
  std::string sentence = verdictSentence(verdict);
  EXPECT_NE(sentence.find("Memory bound"), std::string::npos) << sentence;
  EXPECT_NE(
      sentence.find("Its counters show more DRAM traffic than math: DRAM throughput 50.0% of peak (read 30.0%, "
                    "write 20.0%), SM Issue 10.0%, Tensor Active 0.0%, SMs Active 95.0%; tensor cores stayed idle"),
      std::string::npos)
      << sentence;
  EXPECT_NE(sentence.find("GPU metrics sampled at 1 kHz, 100 samples"), std::string::npos) << sentence;
  nlohmann::ordered_json json = verdictJson(verdict);
  EXPECT_EQ(json["evidence"]["gpu_metrics"]["dram_throughput_pct"], 50.0) << json.dump(1);
  EXPECT_EQ(json["evidence"]["gpu_metrics"]["memory_bound"], true);
  EXPECT_EQ(json["evidence"]["gpu_metrics"]["source"], "GPU metrics sampled at 1 kHz, 100 samples");
}

TEST(CounterVerdict, TensorCoresBusierThanDramIsComputeBoundAndSaysTheyRan) {
  Verdict verdict = verdictWith("bf16", {20, 70, 25, 10});
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute);
  std::string sentence = verdictSentence(verdict);
  EXPECT_NE(sentence.find("Its counters show more math than DRAM traffic: DRAM throughput 35.0% of peak"),
            std::string::npos)
      << sentence;
  EXPECT_NE(sentence.find("Tensor Active 70.0%, SMs Active 95.0%; tensor cores ran"), std::string::npos) << sentence;
  EXPECT_EQ(verdictJson(verdict)["evidence"]["gpu_metrics"]["tensor_cores_used"], true);
}

TEST(CounterVerdict, AnFp32LoopIsComputeBoundWithIdleTensorCores) {
  Verdict verdict = verdictWith("fp32", {60, 0, 5, 2});
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute);
  std::string sentence = verdictSentence(verdict);
  EXPECT_NE(sentence.find("SM Issue 60.0%, Tensor Active 0.0%, SMs Active 95.0%; tensor cores stayed idle"),
            std::string::npos)
      << sentence;
  EXPECT_EQ(verdictJson(verdict)["evidence"]["gpu_metrics"]["tensor_cores_used"], false);
}

TEST(CounterVerdict, WithoutMetricsTheVerdictSaysNothingOfCounters) {
  std::string path = testing::processTempPath("counter_verdict", "none.sqlite");
  testing::writeMetricTrace(path, {{1, 90 * kOneMs, "gemm"}}, {}, 0, kOneMs);
  Database db = Database::openReadOnly(path);
  Verdict verdict = windowVerdict(loadVerdictInputs(db), {{0, 100 * kOneMs}});
  EXPECT_EQ(verdict.kind, BottleneckClass::GpuCompute);
  EXPECT_FALSE(verdict.evidence.counters);
  EXPECT_EQ(verdictSentence(verdict).find("counters"), std::string::npos);
  EXPECT_TRUE(verdictJson(verdict)["evidence"]["gpu_metrics"].is_null());
  std::filesystem::remove(path);
}

// nsys's recording of transpose.cu: its steady state is memory bound on the counters alone, and the run's
// verdict gives its two 128 MiB device buffers as the memory peak.
TEST(CounterVerdict, NsysTransposeIsMemoryBoundOnItsCounters) {
  Database db = Database::openReadOnly(testing::gpuMetricsFixture("gm_transpose"));
  VerdictInputs inputs = loadVerdictInputs(db);
  EXPECT_FALSE(inputs.hasMetrics) << "no ncu import: the counters alone decide";
  Verdict verdict = runVerdict(db, inputs);
  ASSERT_TRUE(verdict.evidence.counters);
  EXPECT_EQ(verdict.kind, BottleneckClass::Memory) << verdictSentence(verdict);
  EXPECT_GT(verdict.evidence.counters->dramThroughput(), verdict.evidence.counters->computeThroughput());
  ASSERT_EQ(verdict.memoryPeaks.size(), 1u);
  EXPECT_EQ(verdict.memoryPeaks[0].peakBytes, 2 * 134217728);
  EXPECT_GT(verdict.memoryPeaks[0].totalBytes, 100'000'000'000);
  EXPECT_FALSE(verdict.memoryPeaks[0].nearTotal());
  std::string sentence = verdictSentence(verdict);
  EXPECT_NE(sentence.find("Device memory peaked at 256.00 MiB of"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("(CUDA memory usage events)"), std::string::npos) << sentence;
}

}  // namespace
}  // namespace gpuscope
