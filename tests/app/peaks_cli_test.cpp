// `gpuscope peaks` as a user runs it, with stand-ins for the CUDA helper (these tests run without a GPU):
// the output read and printed, --store into a trace and `gpuscope roofline` using it, and the helper's
// absence or failure said in one sentence.
#include <gtest/gtest.h>
#include <sys/stat.h>
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
using gpuscope::test::testTempPath;
using Run = gpuscope::test::ProcessRun;

// Runs gpuscope ARGS with $GPUSCOPE_PEAKS_HELPER set to HELPER.
Run gpuscope(const std::string& helper, const std::string& args) {
  return gpuscope::test::runGpuscope(args, {{"GPUSCOPE_PEAKS_HELPER", helper}});
}

// A stand-in helper: a shell script that checks it was asked for device 0, prints BODY and exits with STATUS.
std::string fakeHelper(const std::string& body, int status = 0) {
  auto path = testTempPath("peaks_cli", "gpuscope-peaks");
  std::ofstream script(path, std::ios::trunc);
  script << "#!/bin/sh\n[ \"$1 $2\" = '--device 0' ] || { echo \"bad arguments: $*\" >&2; exit 9; }\ncat <<'EOF'\n"
         << body << "\nEOF\nexit " << status << "\n";
  script.close();
  chmod(path.c_str(), 0755);
  return path;
}

// What the real helper printed on an H100 (values rounded).
const std::string kMeasurement = R"({"format": 1, "helper": "gpuscope-peaks 0.1.0", "measuredAt": 1732000000000000000,
 "device": {"ordinal": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "0ef79e88-2755-c950-5bf6-0d309cf81a3a",
   "computeMajor": 9, "computeMinor": 0, "smCount": 132, "clockRate": 1980000000, "memoryBandwidth": 3352320000000,
   "l2CacheSize": 52428800, "totalMemory": 85045379072},
 "peaks": [{"kind": "dram", "value": 2.9e12, "method": "copy kernel"},
           {"kind": "l2", "value": 8.0e12, "method": "reads past L1"},
           {"kind": "fp32", "value": 5.9e13, "method": "FFMA chains"}]})";

TEST(PeaksCli, PrintsMeasuredAgainstTheoretical) {
  auto helper = fakeHelper(kMeasurement);
  auto csv = gpuscope(helper, "peaks --format csv");
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  auto records = gpuscope::parseCsv(csv.out);
  ASSERT_EQ(records.size(), 4u) << csv.out;
  EXPECT_EQ(records[1], (std::vector<std::string>{"dram", "2900.0", "3352.3", "86.5", "GB/s", "copy kernel"}));
  EXPECT_EQ(records[3][0], "fp32");
  EXPECT_EQ(records[3][3], "88.2");
  auto json = gpuscope(helper, "peaks --format json");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["device"]["uuid"], "0ef79e88-2755-c950-5bf6-0d309cf81a3a");
  EXPECT_EQ(doc["peaks"]["rows"].size(), 3u);
  auto table = gpuscope(helper, "peaks");
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_NE(table.out.find("NVIDIA H100 80GB HBM3"), std::string::npos) << table.out;
  EXPECT_EQ(gpuscope(helper, "peaks --device 1").exitCode, 1);  // the stand-in refuses other devices
}

TEST(PeaksCli, StoreThenRooflineUsesTheMeasuredRoofs) {
  auto trace = testTempPath("peaks_cli", "metrics.sqlite");
  auto helper = fakeHelper(kMeasurement);
  ASSERT_EQ(gpuscope(helper, "import-ncu '" + nsysFixture("transpose.sqlite") + "' '" +
                                 nsysFixture("transpose_ncu_metrics.csv") + "' -o '" + trace + "'")
                .exitCode,
            0);
  auto stored = gpuscope(helper, "peaks --format csv --store '" + trace + "'");
  ASSERT_EQ(stored.exitCode, 0) << stored.err;
  EXPECT_NE(stored.err.find("stored 3 measured roofs for device 0"), std::string::npos) << stored.err;
  auto roofline = gpuscope(helper, "roofline '" + trace + "' --format json");
  ASSERT_EQ(roofline.exitCode, 0) << roofline.err;
  auto roofs = nlohmann::json::parse(roofline.out)["roofs"]["rows"][0];
  EXPECT_DOUBLE_EQ(roofs["DRAM (GB/s)"].get<double>(), 2900.0);
  EXPECT_DOUBLE_EQ(roofs["L2 (GB/s)"].get<double>(), 8000.0);
  EXPECT_DOUBLE_EQ(roofs["FP32 Peak (GFLOP/s)"].get<double>(), 59000.0);
  EXPECT_EQ(roofs["Source"], "measured: DRAM, L2, FP32; theoretical: L1, FP64, FP16, Tensor");
  auto text = gpuscope(helper, "roofline '" + trace + "'");
  EXPECT_NE(text.out.find("measured: DRAM, L2, FP32"), std::string::npos) << text.out;
  std::filesystem::remove(trace);
}

TEST(PeaksCli, StoreRefusesATraceOfAnotherGpu) {
  auto other = kMeasurement;
  other.replace(other.find("0ef79e88"), 8, "12345678");
  other.replace(other.find("NVIDIA H100 80GB HBM3"), 21, "NVIDIA A100-SXM4-80GB");
  auto copy = testTempPath("peaks_cli", "copy.sqlite");
  std::filesystem::copy_file(nsysFixture("transpose.sqlite"), copy, std::filesystem::copy_options::overwrite_existing);
  auto run = gpuscope(fakeHelper(other), "peaks --store '" + copy + "'");
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("has no device that is this GPU (NVIDIA A100-SXM4-80GB)"), std::string::npos) << run.err;
  std::filesystem::remove(copy);
}

TEST(PeaksCli, MissingHelperIsOneClearSentence) {
  auto run = gpuscope(testTempPath("peaks_cli", "no-such-helper"), "peaks");
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_NE(run.err.find("gpuscope: gpuscope peaks needs its CUDA helper gpuscope-peaks, which is not at "),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << run.err;  // one line
}

TEST(PeaksCli, HelperFailuresAreReported) {
  auto noGpu = gpuscope(
      fakeHelper(
          R"({"format": 1, "error": "gpuscope-peaks: no CUDA GPU is visible here (no CUDA-capable device is detected)."})",
          1),
      "peaks");
  EXPECT_EQ(noGpu.exitCode, 1);
  EXPECT_EQ(noGpu.err, "gpuscope: gpuscope-peaks: no CUDA GPU is visible here (no CUDA-capable device is detected).\n");
  auto crashed = gpuscope(fakeHelper("", 3), "peaks");
  EXPECT_EQ(crashed.exitCode, 1);
  EXPECT_NE(crashed.err.find("failed (exit status 3) without a measurement"), std::string::npos) << crashed.err;
  auto garbage = gpuscope(fakeHelper("{ not json"), "peaks");
  EXPECT_EQ(garbage.exitCode, 1);
  EXPECT_NE(garbage.err.find("something other than its JSON measurement"), std::string::npos) << garbage.err;
}

}  // namespace
