#pragma once
// The GPU metric sets `gpuscope record --gpu-metrics` samples with CUPTI's PM sampling: for each nsys metric
// name (core/metrics/gpu_metric_names.h, the one home of the names) the PM sampling metric CUPTI evaluates for
// it, and the metricId nsys gives that name on an H100/H200, so files keep nsys's ids. No CUPTI needed here:
// the recorder checks options with it, the injection asks CUPTI for the expressions, the daemon names rows.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gpuscope::gpu_metrics {

struct MetricCounter {
  std::string_view name;        // a gpu_metric:: constant
  int metricId;                 // nsys's TARGET_INFO_GPU_METRICS.metricId for the name (GH100 set)
  std::string_view expression;  // the PM sampling metric, evaluated over one sample's interval
};

struct MetricSet {
  std::string_view name;
  std::string_view description;
  std::span<const MetricCounter> counters;
};

// Every set, the default first.
std::span<const MetricSet> metricSets();
// The set called NAME, or null.
const MetricSet* findMetricSet(std::string_view name);
// Its index in metricSets() (what a sample record carries), or -1.
int metricSetIndex(std::string_view name);

inline constexpr std::string_view kDefaultSet = "gh100";
// nsys's default and range for --gpu-metrics-frequency.
inline constexpr int64_t kDefaultFrequencyHz = 10'000;
inline constexpr int64_t kMinFrequencyHz = 10;
inline constexpr int64_t kMaxFrequencyHz = 200'000;

// "" when --gpu-metrics-frequency HZ and --gpu-metrics-set SET are usable, else one sentence saying why not.
std::string gpuMetricsOptionsProblem(int64_t frequencyHz, std::string_view set);
// The sets for --help: "gh100 (...), utilization (...)".
std::string metricSetsHelp();

}  // namespace gpuscope::gpu_metrics
