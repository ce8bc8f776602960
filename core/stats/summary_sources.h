#pragma once
// The groups behind the summaries, apart from their tables: a recipe (core/recipe) gathers them from many
// files and makes the table from all of them with the same code as `stats`, so that the two agree exactly.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/stats/summary_table.h"

namespace gpuscope {

class Database;

SummaryLayout cudaApiSumLayout();
SampleGroups cudaApiSamples(const Database& db);
SummaryLayout cudaGpuKernSumLayout();
SampleGroups cudaGpuKernSamples(const Database& db);
SummaryLayout nvtxSumLayout();
SampleGroups nvtxSumSamples(const Database& db);
SummaryLayout osrtSumLayout();
SampleGroups osrtSamples(const Database& db);

// nvtx_gpu_proj_sum's groups, by (range name, style): each projected range's time, and the sums the
// report averages over the group's ranges.
struct NvtxProjectionGroup {
  std::vector<int64_t> projected;
  int64_t rangeTime = 0, operations = 0, levels = 0, children = 0;
};
using NvtxProjectionGroups = std::map<std::pair<std::string, std::string>, NvtxProjectionGroup>;
NvtxProjectionGroups nvtxProjectionGroups(const Database& db);
ReportTable nvtxGpuProjTable(const NvtxProjectionGroups& groups);

}  // namespace gpuscope
