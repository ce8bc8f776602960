#pragma once
// gpu_time_util: how much of its time each rank's GPUs spent running kernels. A device's span runs from its
// first kernel's start to its last kernel's end; its busy time is the union of its kernels' intervals
// (overlapping kernels on several streams count once).
#include <vector>

#include "core/recipe/recipe_part.h"
#include "core/report/report_table.h"

namespace gpuscope {

// One group a device: labels {device id}, sums {first start, last end, busy ns, kernels}.
std::vector<RecipeGroup> gpuTimeUtilGroups(const Database& db);

// "stats": one row a device id over all ranks; "rank_stats": one row a rank and device. PARTS in rank order.
ReportTable gpuTimeUtilTable(const std::vector<RecipePart>& parts);
ReportTable gpuTimeUtilRankTable(const std::vector<RecipePart>& parts);

}  // namespace gpuscope
