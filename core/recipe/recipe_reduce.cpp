#include "core/recipe/recipe_reduce.h"

#include <algorithm>
#include <iterator>
#include <span>
#include <tuple>
#include <variant>

#include "core/error.h"
#include "core/recipe/gpu_metric_util.h"
#include "core/recipe/gpu_time_util.h"
#include "core/stats/summary_sources.h"

namespace gpuscope {
namespace {

using Parts = std::vector<RecipePart>;

SummaryLayout summaryLayout(std::string_view recipe) {
  if (recipe == "cuda_api_sum") return cudaApiSumLayout();
  if (recipe == "cuda_gpu_kern_sum") return cudaGpuKernSumLayout();
  if (recipe == "nvtx_sum") return nvtxSumLayout();
  if (recipe == "osrt_sum") return osrtSumLayout();
  return {"nccl_sum", "NCCL Kernel Summary", "Instances", {"Name"}};
}

void addSamples(const RecipePart& part, SampleGroups& into) {
  for (const auto& group : part.groups) {
    auto& samples = into[group.labels];
    samples.insert(samples.end(), group.samples.begin(), group.samples.end());
  }
}

void addProjections(const RecipePart& part, NvtxProjectionGroups& into) {
  for (const auto& group : part.groups) {
    if (group.labels.size() != 2 || group.sums.size() != 4) continue;
    auto& merged = into[{group.labels[0], group.labels[1]}];
    merged.projected.insert(merged.projected.end(), group.samples.begin(), group.samples.end());
    merged.rangeTime = saturatingAdd(merged.rangeTime, group.sums[0]);
    merged.operations += group.sums[1];
    merged.levels += group.sums[2];
    merged.children += group.sums[3];
  }
}

// The table of PARTS together, for the recipes made of grouped samples.
ReportTable groupedTable(std::string_view recipe, std::span<const RecipePart> parts) {
  if (recipe == "nvtx_gpu_proj_sum") {
    NvtxProjectionGroups groups;
    for (const auto& part : parts) addProjections(part, groups);
    return nvtxGpuProjTable(groups);
  }
  SampleGroups groups;
  for (const auto& part : parts) addSamples(part, groups);
  return timeSummaryTable(summaryLayout(recipe), groups);
}

// Each part's own table, one after the other, with its rank in a first column.
ReportTable rankTable(std::string_view recipe, const Parts& parts) {
  ReportTable table = groupedTable(recipe, {});
  table.title += " by Rank";
  table.columns.insert(table.columns.begin(), {"Rank", 0});
  for (const auto& part : parts) {
    for (auto& row : groupedTable(recipe, {&part, 1}).rows) {
      auto& ranked = table.rows.emplace_back();
      ranked.emplace_back(std::in_place_type<int64_t>, part.rankOrIndex());
      std::move(row.begin(), row.end(), std::back_inserter(ranked));
    }
  }
  return table;
}

ReportTable filesTable(std::string_view recipe, const Parts& parts) {
  ReportTable table{std::string(recipe), "Input Files", {{"Rank", 0}, {"File", 0}, {"Note", 0}}, {}};
  for (const auto& part : parts) {
    auto& row = table.rows.emplace_back();
    row.emplace_back(std::in_place_type<int64_t>, part.rankOrIndex());
    row.emplace_back(part.file);
    row.emplace_back(part.unavailable);
  }
  return table;
}

void checkParts(std::string_view recipe, const Parts& parts) {
  for (const auto& part : parts) {
    if (part.recipe != recipe)
      throw TraceError("The part of " + part.file + " is for recipe " + part.recipe + ", not " + std::string(recipe) +
                       ".");
  }
  bool anyData = std::any_of(parts.begin(), parts.end(), [](const auto& part) { return part.unavailable.empty(); });
  if (parts.empty()) throw TraceError("The recipe " + std::string(recipe) + " was given no files.");
  if (!anyData)
    throw TraceError("No file has anything for " + std::string(recipe) + ": " + parts.front().file + ": " +
                     parts.front().unavailable);
}

}  // namespace

RecipeResult reduceRecipe(std::string_view recipe, Parts parts) {
  requireRecipeName(recipe);
  checkParts(recipe, parts);
  std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(a.rankOrIndex(), a.index) < std::make_tuple(b.rankOrIndex(), b.index);
  });
  RecipeResult result;
  if (recipe == "gpu_time_util") {
    result.stats = gpuTimeUtilTable(parts);
    result.rankStats = gpuTimeUtilRankTable(parts);
  } else if (recipe == "gpu_metric_util_sum") {
    result.stats = gpuMetricUtilTable(parts);
    result.rankStats = gpuMetricUtilRankTable(parts);
  } else {
    result.stats = groupedTable(recipe, parts);
    result.rankStats = rankTable(recipe, parts);
  }
  result.files = filesTable(recipe, parts);
  return result;
}

}  // namespace gpuscope
