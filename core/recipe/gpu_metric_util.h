#pragma once
// gpu_metric_util_sum: how busy each rank's GPUs were by their own counters (GPU metrics: SMs Active, SM Issue,
// Tensor Active, DRAM read and write bandwidth), as distributions of the sampled percentages over the run.
#include <vector>

#include "core/recipe/recipe_part.h"
#include "core/report/report_table.h"

namespace gpuscope {

// One group a device and metric: labels {device id, metric name}, samples: the metric's values.
std::vector<RecipeGroup> gpuMetricUtilGroups(const Database& db);

// "stats": one row a metric over all ranks and devices; "rank_stats": one row a rank, device and metric.
ReportTable gpuMetricUtilTable(const std::vector<RecipePart>& parts);
ReportTable gpuMetricUtilRankTable(const std::vector<RecipePart>& parts);

}  // namespace gpuscope
