// Recipe parts and their reduction: a part survives its JSON form, medians and deviations over all ranks
// are exact (the samples of every part, not a summary of summaries), ranks order the per-rank table, and
// a damaged part or one of another recipe is refused with a sentence.
#include "core/recipe/recipe_reduce.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/recipe/recipe_part.h"
#include "core/report/report_format.h"

namespace gpuscope {
namespace {

RecipePart kernelPart(int64_t index, std::optional<int64_t> rank, std::vector<int64_t> samples) {
  return {"cuda_gpu_kern_sum", "rank" + std::to_string(index) + ".sqlite", index, rank, "", {{{"gemm"}, samples, {}}}};
}

TEST(RecipeReduce, APartSurvivesItsJson) {
  auto part = kernelPart(3, 7, {5, 1, 5, 9, 5});
  auto back = partFromJson(partJson(part), "test");
  EXPECT_EQ(back.recipe, part.recipe);
  EXPECT_EQ(back.file, part.file);
  EXPECT_EQ(back.index, 3);
  EXPECT_EQ(back.rank, std::optional<int64_t>(7));
  ASSERT_EQ(back.groups.size(), 1u);
  EXPECT_EQ(back.groups[0].labels, std::vector<std::string>{"gemm"});
  EXPECT_EQ(back.groups[0].samples, (std::vector<int64_t>{1, 5, 5, 5, 9}));  // sorted: values with counts
}

TEST(RecipeReduce, TheMedianIsOverEveryInstanceOfEveryRank) {
  // Rank medians 2.5 and 100; over all seven instances the median is 4, which no summary of summaries gives.
  auto result = reduceRecipe("cuda_gpu_kern_sum",
                             {kernelPart(1, std::nullopt, {100, 100, 100}), kernelPart(0, std::nullopt, {1, 2, 3, 4})});
  EXPECT_EQ(formatCsv(result.stats),
            "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
            "100.0,310,7,44.3,4.0,1,100,52.1,gemm\n");
  EXPECT_EQ(formatCsv(result.rankStats),
            "Rank,Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
            "0,100.0,10,4,2.5,2.5,1,4,1.3,gemm\n"
            "1,100.0,300,3,100.0,100.0,100,100,0.0,gemm\n");
}

TEST(RecipeReduce, GpuTimeUtilCountsOverlappingKernelsOnce) {
  RecipePart part{"gpu_time_util", "r.sqlite", 0, 0, "", {{{"0"}, {}, {100, 300, 150, 3}}}};
  auto result = reduceRecipe("gpu_time_util", {part});
  EXPECT_EQ(formatCsv(result.rankStats),
            "Rank,Device ID,Start (ns),End (ns),Duration (ns),In Use (ns),In Use (%),Kernels\n"
            "0,0,100,300,200,150,75.0,3\n");
}

TEST(RecipeReduce, BadPartsAreRefusedWithASentence) {
  EXPECT_THROW(partFromJson(nlohmann::json{{"format", "x"}}, "part"), TraceError);
  auto json = partJson(kernelPart(0, 0, {1}));
  json["groups"][0]["counts"] = nlohmann::json::array({1, 2});
  EXPECT_THROW(partFromJson(json, "part"), TraceError);
  EXPECT_THROW(reduceRecipe("nvtx_sum", {kernelPart(0, 0, {1})}), TraceError);
  EXPECT_THROW(reduceRecipe("no_such_recipe", {}), TraceError);
  RecipePart empty{"osrt_sum", "a.sqlite", 0, 0, "This file has no OSRT_API table.", {}};
  try {
    reduceRecipe("osrt_sum", {empty});
    ADD_FAILURE() << "a recipe with nothing in any file reduced";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("a.sqlite"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace gpuscope
