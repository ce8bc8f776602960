// gpu_metric_util_sum on nsys's export with GPU metrics: each metric's distribution equals SQL over GPU_METRICS.
#include <gtest/gtest.h>

#include <variant>

#include "core/db/sqlite_database.h"
#include "core/recipe/recipe_part.h"
#include "core/recipe/recipe_reduce.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

double sqlReal(const Database& db, const std::string& sql) {
  Statement statement = db.prepare(sql);
  EXPECT_TRUE(statement.step()) << sql;
  return statement.real(0);
}

TEST(GpuMetricUtilSum, EachMetricsDistributionEqualsSqlOverTheFile) {
  std::string path = testing::gpuMetricsFixture("gm_loader2");
  Database db = Database::openReadOnly(path);
  RecipePart part = runRecipePart(db, "gpu_metric_util_sum", path, 0);
  ASSERT_TRUE(part.unavailable.empty()) << part.unavailable;
  RecipeResult result = reduceRecipe("gpu_metric_util_sum", {part});
  ASSERT_EQ(result.stats.rows.size(), 5u);
  const auto& sms = result.stats.rows[0];
  EXPECT_EQ(std::get<std::string>(sms[0]), "SMs Active");
  std::string where =
      " FROM GPU_METRICS WHERE metricId = (SELECT metricId FROM TARGET_INFO_GPU_METRICS WHERE "
      "metricName = 'SMs Active [Throughput %]')";
  EXPECT_EQ(std::get<int64_t>(sms[2]), static_cast<int64_t>(sqlReal(db, "SELECT count(*)" + where)));
  EXPECT_NEAR(std::get<double>(sms[3]), sqlReal(db, "SELECT avg(value)" + where), 1e-9);
  EXPECT_EQ(std::get<double>(sms[5]), sqlReal(db, "SELECT min(value)" + where));
  EXPECT_EQ(std::get<double>(sms[6]), sqlReal(db, "SELECT max(value)" + where));
  EXPECT_EQ(std::get<double>(sms[6]), 13.0) << "the fixture's README: SMs Active at most 13%";
  ASSERT_EQ(result.rankStats.rows.size(), 5u);
  EXPECT_EQ(std::get<std::string>(result.rankStats.rows[0][1]), "0");
}

TEST(GpuMetricUtilSum, AFileWithoutMetricsSaysSo) {
  std::string path = testing::fixturePath("nsys/transpose.sqlite");
  RecipePart part = runRecipePart(Database::openReadOnly(path), "gpu_metric_util_sum", path, 0);
  EXPECT_NE(part.unavailable.find("no GPU metrics"), std::string::npos) << part.unavailable;
}

}  // namespace
}  // namespace gpuscope
