#pragma once
// Reducing a recipe's parts (recipe_part.h) over all ranks into its tables, with the code of `gpuscope
// stats`: a recipe over the rank files equals the stats report of the files merged into one.
#include <string_view>
#include <vector>

#include "core/recipe/recipe_part.h"
#include "core/report/report_table.h"

namespace gpuscope {

// What a recipe writes: "stats" (all ranks together), "rank_stats"
// (the same rows for each rank, a Rank column first) and "files" (each input with its rank, and why it had
// nothing for the recipe where it had nothing).
struct RecipeResult {
  ReportTable stats;
  ReportTable rankStats;
  ReportTable files;
};

// Ranks are the files' own (readRankIdentity) or, for a file that does not say, its place in the input list;
// parts are reported in rank order. Throws TraceError when a part is of another recipe, or when no file had
// anything for RECIPE (with the first file's reason).
RecipeResult reduceRecipe(std::string_view recipe, std::vector<RecipePart> parts);

}  // namespace gpuscope
