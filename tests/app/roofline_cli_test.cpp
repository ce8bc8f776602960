// `gpuscope import-ncu` and `gpuscope roofline` as a user runs them: the real executable on the fixtures.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/ncu/csv_reader.h"
#include "process_runner.h"

namespace {

using gpuscope::test::nsysFixture;
using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

// transpose.sqlite with the fixture's ncu metrics, in a copy.
std::string importedTrace() {
  auto out = testTempPath("roofline_cli", "metrics.sqlite");
  auto run = runGpuscope("import-ncu '" + nsysFixture("transpose.sqlite") + "' '" +
                         nsysFixture("transpose_ncu_metrics.csv") + "' -o '" + out + "'");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("Attached the metrics of 6 of 6 profiled kernel launches"), std::string::npos) << run.out;
  EXPECT_TRUE(run.err.empty()) << run.err;
  return out;
}

size_t column(const std::vector<std::string>& header, const std::string& title) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == title) return i;
  ADD_FAILURE() << "no column " << title;
  return 0;
}

TEST(RooflineCli, KernelsByNameAsCsv) {
  auto trace = importedTrace();
  auto run = runGpuscope("roofline '" + trace + "' --by name --format csv");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto records = gpuscope::parseCsv(run.out);
  ASSERT_EQ(records.size(), 4u) << run.out;  // header + 3 kernels
  const auto& header = records[0];
  auto name = column(header, "Kernel"), kernels = column(header, "Kernels"), fp32 = column(header, "FP32 FLOPs"),
       fp64 = column(header, "FP64 FLOPs"), dram = column(header, "DRAM Bytes"), l2 = column(header, "L2 Bytes"),
       l1 = column(header, "L1 Bytes"), bound = column(header, "Bound");
  const std::string n2 = std::to_string(2LL * 2 * 8192 * 4096);  // two saxpy launches, 2 FLOPs per element
  int seen = 0;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& row = records[r];
    EXPECT_EQ(row[kernels], "2");
    EXPECT_EQ(row[fp64], "");  // not collected
    EXPECT_EQ(row[bound], "DRAM");
    if (row[name] == "saxpy(float *, const float *, float, int)") {
      ++seen;
      EXPECT_EQ(row[fp32], n2);
      EXPECT_EQ(row[dram], std::to_string(387198208LL + 387371776LL));
      EXPECT_EQ(row[l2], std::to_string(607966720LL + 607952672LL));
      EXPECT_EQ(row[l1], std::to_string(2 * 402653184LL));
    } else if (row[name] == "transposeNaive(float *, const float *, int, int)") {
      ++seen;
      EXPECT_EQ(row[fp32], "0");
      EXPECT_EQ(row[dram], std::to_string(313716480LL + 313139456LL));
    } else if (row[name] == "transposeShared(float *, const float *, int, int)") {
      ++seen;
      EXPECT_EQ(row[fp32], "0");
      EXPECT_EQ(row[dram], std::to_string(249723648LL + 249761024LL));
    }
  }
  EXPECT_EQ(seen, 3);
  std::filesystem::remove(trace);
}

TEST(RooflineCli, InstancesNvtxAndJson) {
  auto trace = importedTrace();
  auto instances = runGpuscope("roofline '" + trace + "' --by instance --format csv");
  ASSERT_EQ(instances.exitCode, 0) << instances.err;
  EXPECT_EQ(gpuscope::parseCsv(instances.out).size(), 7u);
  auto nvtx = runGpuscope("roofline '" + trace + "' --by nvtx --format csv");
  ASSERT_EQ(nvtx.exitCode, 0) << nvtx.err;
  auto records = gpuscope::parseCsv(nvtx.out);
  ASSERT_EQ(records.size(), 3u) << nvtx.out;
  EXPECT_EQ(records[1][0], ":naive");
  EXPECT_EQ(records[2][0], ":shared");
  auto json = runGpuscope("roofline '" + trace + "' --format json");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["roofs"]["rows"][0]["Architecture"], "Hopper (sm_90)");
  EXPECT_NEAR(doc["roofs"]["rows"][0]["FP32 Peak (GFLOP/s)"].get<double>(), 66908.2, 0.05);
  EXPECT_EQ(doc["points"]["rows"].size(), 3u);
  auto table = runGpuscope("roofline '" + trace + "'");
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_NE(table.out.find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(table.out.find("saxpy"), std::string::npos);
  std::filesystem::remove(trace);
}

TEST(RooflineCli, UserErrorsAreOneSentence) {
  auto noMetrics = runGpuscope("roofline '" + nsysFixture("transpose.sqlite") + "'");
  EXPECT_EQ(noMetrics.exitCode, 1);
  EXPECT_NE(noMetrics.err.find("has no kernel metrics"), std::string::npos) << noMetrics.err;
  auto noTarget = runGpuscope("import-ncu '" + nsysFixture("transpose.sqlite") + "' '" +
                              nsysFixture("transpose_ncu_metrics.csv") + "'");
  EXPECT_EQ(noTarget.exitCode, 1);
  EXPECT_NE(noTarget.err.find("--in-place"), std::string::npos) << noTarget.err;
  auto both = runGpuscope("import-ncu '" + nsysFixture("transpose.sqlite") + "' '" +
                          nsysFixture("transpose_ncu_metrics.csv") + "' -o x.sqlite --in-place");
  EXPECT_EQ(both.exitCode, 2);
  auto notNcu = runGpuscope("import-ncu '" + nsysFixture("transpose.sqlite") + "' '" +
                            nsysFixture("transpose_stats_cuda_api_sum.csv") + "' -o '" +
                            testTempPath("roofline_cli", "out.sqlite") + "'");
  EXPECT_EQ(notNcu.exitCode, 1);
  EXPECT_NE(notNcu.err.find("not an `ncu --csv` report"), std::string::npos) << notNcu.err;
  EXPECT_EQ(runGpuscope("roofline --by layer x.sqlite").exitCode, 2);
}

TEST(RooflineCli, InPlaceChangesOnlyTheNamedFile) {
  auto copy = testTempPath("roofline_cli", "copy.sqlite");
  std::filesystem::copy_file(nsysFixture("transpose.sqlite"), copy, std::filesystem::copy_options::overwrite_existing);
  auto run = runGpuscope("import-ncu '" + copy + "' '" + nsysFixture("transpose_ncu_metrics.csv") + "' --in-place");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(runGpuscope("roofline '" + copy + "' --format csv").exitCode, 0);
  EXPECT_EQ(runGpuscope("roofline '" + nsysFixture("transpose.sqlite") + "'").exitCode, 1);
  std::filesystem::remove(copy);
}

}  // namespace
