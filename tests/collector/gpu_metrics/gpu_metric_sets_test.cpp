// The metric sets of `record --gpu-metrics` and the options that choose them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "collector/gpu_metrics/metric_sets.h"
#include "collector/launch/record_session.h"
#include "core/error.h"
#include "core/metrics/gpu_metric_names.h"

namespace gpuscope {
namespace {

// Every name the recorder may write, as core's one home spells them.
const std::set<std::string_view> kKnownNames = {gpu_metric::kGpcClock,
                                                gpu_metric::kSysClock,
                                                gpu_metric::kGrActive,
                                                gpu_metric::kSmsActive,
                                                gpu_metric::kSmIssue,
                                                gpu_metric::kTensorActive,
                                                gpu_metric::kComputeWarpsInFlight,
                                                gpu_metric::kComputeWarpsAvg,
                                                gpu_metric::kComputeWarpsPerCycle,
                                                gpu_metric::kUnallocatedWarps,
                                                gpu_metric::kUnallocatedWarpsAvg,
                                                gpu_metric::kUnallocatedWarpsPerCycle,
                                                gpu_metric::kDramRead,
                                                gpu_metric::kDramWrite,
                                                gpu_metric::kPcieRx,
                                                gpu_metric::kPcieTx,
                                                gpu_metric::kNvlinkRx,
                                                gpu_metric::kNvlinkTx};

TEST(GpuMetricSets, EveryNameIsAGpuMetricConstantWithOneIdAndExpression) {
  ASSERT_FALSE(gpu_metrics::metricSets().empty());
  EXPECT_EQ(gpu_metrics::metricSets()[0].name, gpu_metrics::kDefaultSet);
  for (const auto& set : gpu_metrics::metricSets()) {
    std::set<std::string_view> names;
    std::set<int> ids;
    for (const auto& counter : set.counters) {
      EXPECT_TRUE(kKnownNames.count(counter.name)) << set.name << ": " << counter.name;
      EXPECT_TRUE(names.insert(counter.name).second) << set.name << " repeats " << counter.name;
      EXPECT_TRUE(ids.insert(counter.metricId).second) << set.name << " repeats id " << counter.metricId;
      EXPECT_NE(counter.expression.find("__"), std::string_view::npos) << counter.expression;
      // Percent rows come from a percent-of-peak metric, clocks from cycles per second.
      if (gpu_metric::isPercent(counter.name)) {
        EXPECT_NE(counter.expression.find("pct_of_peak_sustained_elapsed"), std::string_view::npos) << counter.name;
      }
      if (gpu_metric::isClock(counter.name)) {
        EXPECT_NE(counter.expression.find("cycles_elapsed.avg.per_second"), std::string_view::npos) << counter.name;
      }
    }
  }
}

// The warps rows read 0% where nsys read 14.4% on an H200 bf16 GEMM: left out rather than shown wrong.
TEST(GpuMetricSets, TheWarpsRowsThatDidNotMatchNsysAreNotRecorded) {
  for (const auto& set : gpu_metrics::metricSets())
    for (const auto& counter : set.counters) {
      EXPECT_NE(counter.name, gpu_metric::kComputeWarpsInFlight) << set.name;
      EXPECT_NE(counter.name, gpu_metric::kUnallocatedWarps) << set.name;
    }
}

TEST(GpuMetricSets, TheDefaultSetHasWhatTheIssueAsksWithNsysIds) {
  const auto* set = gpu_metrics::findMetricSet(gpu_metrics::kDefaultSet);
  ASSERT_NE(set, nullptr);
  // nsys's metricId of each name in its GH100 set (../shared/fixtures/nsys-gpu-metrics).
  const std::pair<std::string_view, int> wanted[] = {{gpu_metric::kGpcClock, 0},  {gpu_metric::kSysClock, 1},
                                                     {gpu_metric::kGrActive, 2},  {gpu_metric::kSmsActive, 3},
                                                     {gpu_metric::kSmIssue, 4},   {gpu_metric::kTensorActive, 5},
                                                     {gpu_metric::kDramRead, 18}, {gpu_metric::kDramWrite, 19},
                                                     {gpu_metric::kPcieRx, 20},   {gpu_metric::kPcieTx, 21}};
  for (auto [name, id] : wanted) {
    bool found = false;
    for (const auto& counter : set->counters) {
      if (counter.name != name) continue;
      found = true;
      EXPECT_EQ(counter.metricId, id) << name;
    }
    EXPECT_TRUE(found) << name;
  }
}

TEST(GpuMetricOptions, FrequencyAndSetAreRefusedInOneSentence) {
  EXPECT_EQ(gpu_metrics::gpuMetricsOptionsProblem(10'000, "gh100"), "");
  EXPECT_EQ(gpu_metrics::gpuMetricsOptionsProblem(10, "utilization"), "");
  EXPECT_EQ(gpu_metrics::gpuMetricsOptionsProblem(200'000, "gh100"), "");
  EXPECT_NE(gpu_metrics::gpuMetricsOptionsProblem(9, "gh100").find("10 to 200000"), std::string::npos);
  EXPECT_NE(gpu_metrics::gpuMetricsOptionsProblem(200'001, "gh100"), "");
  std::string unknown = gpu_metrics::gpuMetricsOptionsProblem(1000, "ga100");
  EXPECT_NE(unknown.find("unknown --gpu-metrics-set 'ga100'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("gh100"), std::string::npos);
  EXPECT_EQ(unknown.find('\n'), std::string::npos);
}

std::string refusal(const RecordOptions& options) {
  try {
    checkGpuMetricsOptions(options);
  } catch (const TraceError& error) {
    return error.what();
  }
  return "";
}

TEST(GpuMetricOptions, RecordChecksTheCombination) {
  RecordOptions options;
  options.command = {"true"};
  EXPECT_EQ(refusal(options), "");
  options.gpuMetrics = true;
  EXPECT_EQ(refusal(options), "");
  options.gpuMetricsFrequencyHz = 5;
  EXPECT_NE(refusal(options).find("--gpu-metrics-frequency"), std::string::npos);
  options.gpuMetricsFrequencyHz = 1000;
  options.gpuMetricsSet = "nope";
  EXPECT_NE(refusal(options).find("unknown --gpu-metrics-set"), std::string::npos);
  options.gpuMetricsSet = "utilization";
  options.gpuMetrics = false;
  EXPECT_NE(refusal(options).find("add --gpu-metrics"), std::string::npos);
  options.gpuMetrics = true;
  options.metrics = "roofline";
  EXPECT_NE(refusal(options).find("--metrics roofline"), std::string::npos);
  options.metrics.clear();
  options.traces = {"nvtx"};
  EXPECT_NE(refusal(options).find("needs the CUDA trace"), std::string::npos);
  options.gpuMetrics = false;
  options.gpuMetricsSet = "gh100";
  options.gpuMetricsFrequencyHz = gpu_metrics::kDefaultFrequencyHz;
  options.cudaMemoryUsage = true;
  EXPECT_NE(refusal(options).find("--cuda-memory-usage needs the CUDA trace"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope
