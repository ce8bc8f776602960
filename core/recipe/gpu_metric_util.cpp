#include "core/recipe/gpu_metric_util.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/gpu_metrics.h"
#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

// Samples, mean, median, min, max and sample standard deviation of VALUES (percent), as one row's cells.
std::vector<ReportCell> distributionCells(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  double sum = 0;
  for (int64_t value : values) sum += static_cast<double>(value);
  double mean = sum / static_cast<double>(n);
  double median = n % 2 ? static_cast<double>(values[n / 2])
                        : (static_cast<double>(values[n / 2 - 1]) + static_cast<double>(values[n / 2])) / 2;
  double squares = 0;
  for (int64_t value : values) squares += (static_cast<double>(value) - mean) * (static_cast<double>(value) - mean);
  double deviation = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;
  return {static_cast<int64_t>(n),
          mean,
          median,
          static_cast<double>(values.front()),
          static_cast<double>(values.back()),
          deviation};
}

void addDistributionColumns(ReportTable& table) {
  table.columns.push_back({"Samples", 0});
  for (const char* title : {"Avg (%)", "Med (%)", "Min (%)", "Max (%)", "StdDev (%)"})
    table.columns.push_back({title, 1});
}

bool isMetricGroup(const RecipeGroup& group) { return group.labels.size() == 2 && !group.samples.empty(); }

// Where METRIC stands among the summed metrics, for the rows' order.
size_t orderOf(const std::string& metric) {
  const auto& order = gpu_metric::kPerKernel;
  return static_cast<size_t>(std::find(std::begin(order), std::end(order), metric) - std::begin(order));
}

}  // namespace

std::vector<RecipeGroup> gpuMetricUtilGroups(const Database& db) {
  GpuMetrics metrics = readGpuMetrics(db);
  if (metrics.empty()) throw ReportUnavailable("the file has no GPU metrics (GPU_METRICS): were they recorded?");
  std::vector<RecipeGroup> groups;
  for (const GpuMetricDevice& device : metrics.devices) {
    for (std::string_view name : gpu_metric::kPerKernel) {
      const MetricSeries* series = device.find(name);
      if (series == nullptr || series->size() == 0) continue;
      std::span<const int64_t> values = series->values();
      groups.push_back({{std::to_string(device.deviceId), std::string(name)}, {values.begin(), values.end()}, {}});
    }
  }
  return groups;
}

ReportTable gpuMetricUtilTable(const std::vector<RecipePart>& parts) {
  ReportTable table{
      "gpu_metric_util_sum", "GPU Metric Utilization over All Ranks", {{"Metric", 0}, {"Devices", 0}}, {}};
  addDistributionColumns(table);
  std::map<std::string, std::pair<int64_t, std::vector<int64_t>>> byMetric;  // devices, values
  for (const RecipePart& part : parts) {
    for (const RecipeGroup& group : part.groups) {
      if (!isMetricGroup(group)) continue;
      auto& [devices, values] = byMetric[group.labels[1]];
      ++devices;
      values.insert(values.end(), group.samples.begin(), group.samples.end());
    }
  }
  std::vector<std::string> metrics;
  for (const auto& entry : byMetric) metrics.push_back(entry.first);
  std::stable_sort(metrics.begin(), metrics.end(),
                   [](const std::string& a, const std::string& b) { return orderOf(a) < orderOf(b); });
  for (const std::string& metric : metrics) {
    auto& [devices, values] = byMetric[metric];
    std::vector<ReportCell> row{std::string(gpu_metric::labelOf(metric)), devices};
    for (ReportCell& cell : distributionCells(std::move(values))) row.push_back(std::move(cell));
    table.rows.push_back(std::move(row));
  }
  return table;
}

ReportTable gpuMetricUtilRankTable(const std::vector<RecipePart>& parts) {
  ReportTable table{
      "gpu_metric_util_sum", "GPU Metric Utilization by Rank", {{"Rank", 0}, {"Device ID", 0}, {"Metric", 0}}, {}};
  addDistributionColumns(table);
  for (const RecipePart& part : parts) {
    for (const RecipeGroup& group : part.groups) {
      if (!isMetricGroup(group)) continue;
      std::vector<ReportCell> row{part.rankOrIndex(), group.labels[0],
                                  std::string(gpu_metric::labelOf(group.labels[1]))};
      for (ReportCell& cell : distributionCells(group.samples)) row.push_back(std::move(cell));
      table.rows.push_back(std::move(row));
    }
  }
  return table;
}

}  // namespace gpuscope
