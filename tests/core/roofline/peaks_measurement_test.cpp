// Reading gpuscope-peaks' JSON output, and the measured-against-theoretical table of `gpuscope peaks`.
#include "core/roofline/peaks_measurement.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/report/report_format.h"

namespace gpuscope {
namespace {

// What the helper prints on an H100 SXM (the device facts as TARGET_INFO_GPU has them for the fixture).
const std::string kOutput = R"({"format": 1, "helper": "gpuscope-peaks 0.1.0", "measuredAt": 1732000000123456789,
  "device": {"ordinal": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "0ef79e88-2755-c950-5bf6-0d309cf81a3a",
             "computeMajor": 9, "computeMinor": 0, "smCount": 132, "clockRate": 1980000000,
             "memoryBandwidth": 3352320000000, "l2CacheSize": 52428800, "totalMemory": 85045379072},
  "peaks": [{"kind": "dram", "value": 3.0e12, "method": "copy kernel"},
            {"kind": "l2", "value": 7.0e12, "method": "reads past L1"},
            {"kind": "warp-shuffle", "value": 1.0e12, "method": "from a newer helper"},
            {"kind": "fp32", "value": 6.0e13, "method": "FFMA chains"}]})";

std::string errorOf(const std::string& text) {
  try {
    parsePeaksOutput(text);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PeaksMeasurement, ReadsTheHelpersOutput) {
  auto measurement = parsePeaksOutput(kOutput);
  EXPECT_EQ(measurement.helper, "gpuscope-peaks 0.1.0");
  EXPECT_EQ(measurement.device.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(measurement.device.smCount, 132);
  EXPECT_EQ(measurement.device.clockRate, 1980000000);
  EXPECT_EQ(measurement.device.memoryBandwidth, 3352320000000);
  EXPECT_EQ(measurement.uuid, "0ef79e88-2755-c950-5bf6-0d309cf81a3a");
  ASSERT_EQ(measurement.peaks.size(), 3u);  // the unknown kind is skipped
  const auto& dram = measurement.peaks[0];
  EXPECT_EQ(dram.kind, "dram");
  EXPECT_EQ(dram.value, 3.0e12);
  EXPECT_EQ(dram.method, "copy kernel");
  EXPECT_EQ(dram.measuredAt, 1732000000123456789);
  EXPECT_EQ(dram.deviceId, 0u);
  EXPECT_EQ(dram.uuid, measurement.uuid);
  EXPECT_EQ(measurement.peaks[2].kind, "fp32");
}

TEST(PeaksMeasurement, TableComparesWithTheoreticalPeaks) {
  auto table = peaksTable(parsePeaksOutput(kOutput));
  EXPECT_EQ(table.name, "device_peaks");
  auto csv = formatCsv(table);
  EXPECT_NE(csv.find("Roof,Measured,Theoretical,Of Theoretical (%),Unit,Method\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("dram,3000.0,3352.3,89.5,GB/s,copy kernel\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("l2,7000.0,,,GB/s,reads past L1\n"), std::string::npos) << csv;  // no published figure
  EXPECT_NE(csv.find("fp32,60000.0,66908.2,89.7,GFLOP/s,FFMA chains\n"), std::string::npos) << csv;
}

TEST(PeaksMeasurement, HelperErrorsAndBadOutputAreOneSentence) {
  EXPECT_EQ(errorOf(R"({"format": 1, "error": "gpuscope-peaks: no CUDA GPU is visible here (no devices)."})"),
            "gpuscope-peaks: no CUDA GPU is visible here (no devices).");
  EXPECT_EQ(errorOf(""), "gpuscope-peaks printed something other than its JSON measurement.");
  EXPECT_EQ(errorOf("Segmentation fault"), "gpuscope-peaks printed something other than its JSON measurement.");
  EXPECT_EQ(errorOf("[1, 2]"), "gpuscope-peaks printed something other than its JSON measurement.");
  EXPECT_NE(errorOf(R"({"format": 2, "device": {}, "peaks": []})").find("another output format"), std::string::npos);
  EXPECT_EQ(errorOf(R"({"format": 1, "peaks": []})"), "gpuscope-peaks' output has no device or no peaks.");
  EXPECT_EQ(errorOf(R"({"format": 1, "device": {"name": "X"}, "peaks": [{"kind": "fp32", "value": "fast"},
                       {"kind": "dram", "value": -1}, 7]})"),
            "gpuscope-peaks measured no roof on X.");
}

}  // namespace
}  // namespace gpuscope
