#pragma once
// Recipes: summaries over many rank files (nsys's `nsys recipe` names). Each file's part is computed on its
// own (on a Dask worker, by `gpuscope recipe-part`) as the groups the summary needs, with every sample kept
// so that medians and deviations over all ranks stay exact; recipe_reduce.h then makes the tables from all
// the parts with the same code as `gpuscope stats`.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

class Database;

struct RecipeInfo {
  std::string_view name;
  std::string_view description;
};
// Every recipe, alphabetically.
const std::vector<RecipeInfo>& recipes();
// Throws TraceError naming the recipes when NAME is not one of them.
void requireRecipeName(std::string_view name);

// One group of a part: its labels (a kernel's name, an NVTX range's style and name, a device id), every
// sample (a duration in ns) and the recipe's sums (nvtx_gpu_proj_sum: range time, GPU operations, levels,
// children; gpu_time_util: first start, last end, busy time, kernels).
struct RecipeGroup {
  std::vector<std::string> labels;
  std::vector<int64_t> samples;
  std::vector<int64_t> sums;
};

struct RecipePart {
  std::string recipe;
  std::string file;
  int64_t index = 0;                // the file's place in the input list
  std::optional<int64_t> rank;      // what the file says (readRankIdentity); else none
  std::string unavailable;          // why the file has nothing for this recipe (a missing table); empty: it has
  std::vector<RecipeGroup> groups;  // by labels
  int64_t rankOrIndex() const { return rank.value_or(index); }
};

// RECIPE's part of the file FILE, opened as DB. Throws ReportUnavailable's sentence into `unavailable`
// rather than failing: a rank without OS runtime calls has no osrt_sum part.
RecipePart runRecipePart(const Database& db, std::string_view recipe, const std::string& file, int64_t index);

// A part as JSON and back: samples as sorted distinct values with their counts. partFromJson throws
// TraceError naming SOURCE for anything that is not a part of this format.
nlohmann::json partJson(const RecipePart& part);
RecipePart partFromJson(const nlohmann::json& json, const std::string& source);

}  // namespace gpuscope
