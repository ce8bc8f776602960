#include "core/recipe/recipe_part.h"

#include <algorithm>
#include <array>
#include <map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/identity/hta_kernel_type.h"
#include "core/ranks/rank_identity.h"
#include "core/recipe/gpu_metric_util.h"
#include "core/recipe/gpu_time_util.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/stats/summary_sources.h"

namespace gpuscope {
namespace {

using Groups = std::vector<RecipeGroup>;

Groups fromSamples(SampleGroups samples) {
  Groups groups;
  for (auto& [labels, values] : samples) groups.push_back({labels, std::move(values), {}});
  return groups;
}

// nccl_sum: the kernels HTA calls communication (NCCL's collectives and point-to-point kernels).
Groups ncclKernelGroups(const Database& db) {
  auto kernels = cudaGpuKernSamples(db);
  std::erase_if(kernels,
                [](const auto& group) { return htaKernelType(group.first.front()) != HtaKernelType::Communication; });
  return fromSamples(std::move(kernels));
}

Groups nvtxProjectionParts(const Database& db) {
  Groups groups;
  for (auto& [key, group] : nvtxProjectionGroups(db))
    groups.push_back({{key.first, key.second},
                      std::move(group.projected),
                      {group.rangeTime, group.operations, group.levels, group.children}});
  return groups;
}

struct RecipeEntry {
  RecipeInfo info;
  Groups (*run)(const Database&);
};

const std::array kRecipes = {
    RecipeEntry{{"cuda_api_sum", "CUDA API calls by function over all ranks, and per rank"},
                [](const Database& db) { return fromSamples(cudaApiSamples(db)); }},
    RecipeEntry{{"cuda_gpu_kern_sum", "GPU kernels by name over all ranks, and per rank"},
                [](const Database& db) { return fromSamples(cudaGpuKernSamples(db)); }},
    RecipeEntry{{"gpu_metric_util_sum",
                 "each rank's GPUs by their sampled counters (GPU metrics): SMs Active, SM "
                 "Issue, Tensor Active, DRAM bandwidth"},
                gpuMetricUtilGroups},
    RecipeEntry{{"gpu_time_util", "how much of each rank's GPU time kernels kept each device busy"}, gpuTimeUtilGroups},
    RecipeEntry{{"nccl_sum", "NCCL (communication) kernels by name over all ranks, and per rank"}, ncclKernelGroups},
    RecipeEntry{{"nvtx_gpu_proj_sum", "NVTX ranges projected onto the GPU over all ranks, and per rank"},
                nvtxProjectionParts},
    RecipeEntry{{"nvtx_sum", "NVTX ranges by name over all ranks, and per rank"},
                [](const Database& db) { return fromSamples(nvtxSumSamples(db)); }},
    RecipeEntry{{"osrt_sum", "OS runtime calls by function over all ranks, and per rank"},
                [](const Database& db) { return fromSamples(osrtSamples(db)); }},
};

const RecipeEntry* findRecipe(std::string_view name) {
  for (const auto& entry : kRecipes)
    if (entry.info.name == name) return &entry;
  return nullptr;
}

nlohmann::json groupJson(const RecipeGroup& group) {
  std::map<int64_t, int64_t> counts;
  for (int64_t sample : group.samples) ++counts[sample];
  nlohmann::json values = nlohmann::json::array(), times = nlohmann::json::array();
  for (const auto& [value, count] : counts) {
    values.push_back(value);
    times.push_back(count);
  }
  return {{"labels", group.labels}, {"values", values}, {"counts", times}, {"sums", group.sums}};
}

RecipeGroup groupFromJson(const nlohmann::json& json, const std::string& source) {
  RecipeGroup group{json.at("labels").get<std::vector<std::string>>(), {}, json.at("sums").get<std::vector<int64_t>>()};
  auto values = json.at("values").get<std::vector<int64_t>>();
  auto counts = json.at("counts").get<std::vector<int64_t>>();
  bool countsFit = values.size() == counts.size() && std::all_of(counts.begin(), counts.end(), [](int64_t n) {
                     return n >= 0 && n < (int64_t{1} << 40);
                   });
  if (!countsFit) throw TraceError(source + " is not a gpuscope recipe part: its sample counts do not fit its values.");
  for (size_t i = 0; i < values.size(); ++i) {
    group.samples.insert(group.samples.end(), static_cast<size_t>(counts[i]), values[i]);
  }
  return group;
}

}  // namespace

const std::vector<RecipeInfo>& recipes() {
  static const std::vector<RecipeInfo> infos = [] {
    std::vector<RecipeInfo> all;
    for (const auto& entry : kRecipes) all.push_back(entry.info);
    return all;
  }();
  return infos;
}

void requireRecipeName(std::string_view name) {
  if (findRecipe(name)) return;
  std::string valid;
  for (const auto& entry : kRecipes) valid += (valid.empty() ? "" : ", ") + std::string(entry.info.name);
  throw TraceError("There is no recipe named \"" + std::string(name) + "\"; the recipes are " + valid + ".");
}

RecipePart runRecipePart(const Database& db, std::string_view recipe, const std::string& file, int64_t index) {
  requireRecipeName(recipe);
  RecipePart part{std::string(recipe), file, index, readRankIdentity(db).rank, {}, {}};
  try {
    part.groups = findRecipe(recipe)->run(db);
  } catch (const ReportUnavailable& unavailable) {
    part.unavailable = unavailable.what();
  }
  return part;
}

nlohmann::json partJson(const RecipePart& part) {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& group : part.groups) groups.push_back(groupJson(group));
  return {{"format", "gpuscope-recipe-part"},
          {"version", 1},
          {"recipe", part.recipe},
          {"file", part.file},
          {"index", part.index},
          {"rank", part.rank ? nlohmann::json(*part.rank) : nlohmann::json()},
          {"unavailable", part.unavailable},
          {"groups", groups}};
}

RecipePart partFromJson(const nlohmann::json& json, const std::string& source) {
  try {
    if (json.at("format") != "gpuscope-recipe-part" || json.at("version") != 1)
      throw TraceError(source + " is not a gpuscope recipe part of version 1.");
    RecipePart part;
    part.recipe = json.at("recipe").get<std::string>();
    part.file = json.at("file").get<std::string>();
    part.index = json.at("index").get<int64_t>();
    if (!json.at("rank").is_null()) part.rank = json.at("rank").get<int64_t>();
    part.unavailable = json.at("unavailable").get<std::string>();
    for (const auto& group : json.at("groups")) part.groups.push_back(groupFromJson(group, source));
    return part;
  } catch (const nlohmann::json::exception&) {
    throw TraceError(source + " is not a gpuscope recipe part: a field is missing or of the wrong type.");
  }
}

}  // namespace gpuscope
