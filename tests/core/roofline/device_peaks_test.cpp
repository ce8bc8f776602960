// Measured roofs (GPUSCOPE_DEVICE_PEAKS): stored and read back, preferred over the theoretical ones, and
// shown as measured in the roofs table.
#include "core/roofline/device_peaks.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/target_info.h"
#include "core/model/trace_file.h"
#include "core/ncu/ncu_import.h"
#include "core/report/report_format.h"
#include "core/roofline/roofline_report.h"
#include "core/schema/trace_schema.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;
using testing::processTempPath;
const std::string kTrace = kFixtures + "/nsys/transpose.sqlite";
const std::string kUuid = "0ef79e88-2755-c950-5bf6-0d309cf81a3a";  // the fixture's H100
const std::string kH100 = "NVIDIA H100 80GB HBM3";

std::string traceCopy(const std::string& name) {
  auto path = processTempPath("gpuscope_peaks", name);
  std::filesystem::copy_file(kTrace, path, std::filesystem::copy_options::overwrite_existing);
  return path;
}

MeasuredPeak peak(std::string kind, double value, int64_t measuredAt = 1000, uint32_t deviceId = 0) {
  return {deviceId, kH100, kUuid, std::move(kind), value, "test kernel", measuredAt};
}

DeviceRoofs fixtureRoofs() { return deviceRoofs(readDevices(openTraceFile(kTrace)).at(0)); }

TEST(DevicePeaks, TheoreticalRoofsSayTheyAre) {
  auto roofs = fixtureRoofs();
  EXPECT_EQ(roofs.sourceOf(Precision::Fp32), RoofSource::Theoretical);
  EXPECT_EQ(roofs.sourceOf(MemoryLevel::Dram), RoofSource::Theoretical);
  EXPECT_EQ(roofs.sourceOf(MemoryLevel::L2), RoofSource::Unknown);  // no published Hopper L2 figure
  EXPECT_EQ(roofs.sourceSummary(), "theoretical");
  EXPECT_EQ(roofSourceName(RoofSource::Measured), "measured");
}

TEST(DevicePeaks, MeasuredRoofsReplaceTheoreticalOnesOfTheirDevice) {
  auto roofs = fixtureRoofs();
  double tensor = roofs.peak(Precision::Tensor);
  applyMeasuredPeaks(roofs, {peak("fp32", 50e12, 1000), peak("fp32", 60e12, 2000), peak("fp32", 40e12, 1500),
                             peak("dram", 3.0e12), peak("l2", 7.5e12), peak("fp64", 1e9, 5000, 1)});
  EXPECT_EQ(roofs.peak(Precision::Fp32), 60e12);  // the latest measurement, not the largest or the last row
  EXPECT_EQ(roofs.sourceOf(Precision::Fp32), RoofSource::Measured);
  EXPECT_EQ(roofs.bandwidthOf(MemoryLevel::Dram), 3.0e12);
  EXPECT_EQ(roofs.bandwidthOf(MemoryLevel::L2), 7.5e12);  // measured where no theoretical figure exists
  EXPECT_EQ(roofs.sourceOf(MemoryLevel::L2), RoofSource::Measured);
  EXPECT_EQ(roofs.peak(Precision::Fp64), 132 * 128 * 1.98e9);  // device 1's figure is not device 0's
  EXPECT_EQ(roofs.sourceOf(Precision::Fp64), RoofSource::Theoretical);
  EXPECT_EQ(roofs.peak(Precision::Tensor), tensor);
  EXPECT_EQ(roofs.sourceSummary(), "measured: DRAM, L2, FP32; theoretical: L1, FP64, FP16, Tensor");
}

TEST(DevicePeaks, UnusableMeasurementsAreIgnored) {
  auto roofs = fixtureRoofs();
  auto before = roofs.peak(Precision::Fp16);
  applyMeasuredPeaks(roofs, {peak("fp16", 0), peak("fp16", -1), peak("bf16", 1e15), peak("FP16", 1e15)});
  EXPECT_EQ(roofs.peak(Precision::Fp16), before);
  EXPECT_EQ(roofs.sourceSummary(), "theoretical");
}

TEST(DevicePeaks, StoredPeaksReadBackUnchanged) {
  auto path = traceCopy("roundtrip.sqlite");
  EXPECT_TRUE(readDevicePeaks(openTraceFile(path)).empty());
  std::vector<MeasuredPeak> peaks = {peak("dram", 3.1234567890123e12, 1732000000123456789),
                                     peak("fp16", 1.2e14, 1732000000123456789)};
  peaks[1].method = "HFMA2 \"chains\", it's 8";
  writeDevicePeaks(path, peaks);
  writeDevicePeaks(path, {peak("l1", 2.9e13, 1732000000999999999)});  // appends; the table exists now
  auto db = openTraceFile(path);
  EXPECT_EQ(db.columnsOf(table::kDevicePeaks).size(), tableSpec(table::kDevicePeaks).columns.size());
  auto back = readDevicePeaks(db);
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back[i].deviceId, 0u);
    EXPECT_EQ(back[i].deviceName, kH100);
    EXPECT_EQ(back[i].uuid, kUuid);
    EXPECT_EQ(back[i].kind, peaks[i].kind);
    EXPECT_EQ(back[i].value, peaks[i].value);
    EXPECT_EQ(back[i].method, peaks[i].method);
    EXPECT_EQ(back[i].measuredAt, peaks[i].measuredAt);
  }
  EXPECT_EQ(back[2].kind, "l1");
  std::filesystem::remove(path);
}

TEST(DevicePeaks, RooflinePrefersStoredPeaksAndSaysSo) {
  auto path = processTempPath("gpuscope_peaks", "roofline.sqlite");
  importNcuMetrics({kTrace, kFixtures + "/nsys/transpose_ncu_metrics.csv", path, false});
  writeDevicePeaks(path, {peak("dram", 3.0e12), peak("fp32", 6.0e13), peak("fp64", 5e13, 1000, 7)});
  auto db = openTraceFile(path);
  auto data = loadRoofline(db, RooflineGrouping::Name);
  ASSERT_EQ(data.roofs.size(), 1u);
  EXPECT_EQ(data.roofs[0].bandwidthOf(MemoryLevel::Dram), 3.0e12);
  EXPECT_EQ(data.roofs[0].peak(Precision::Fp32), 6.0e13);
  EXPECT_EQ(data.roofs[0].sourceOf(Precision::Fp64), RoofSource::Theoretical);
  EXPECT_EQ(measuredOrTheoreticalRoofs(db, readDevices(db).at(0)).peak(Precision::Fp32), 6.0e13);
  auto csv = formatCsv(rooflineRoofsTable(data.roofs));
  EXPECT_NE(csv.find(",Source\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",33454.1,60000.0,133816.3,1070530.6,3000.0,,33454.1,"
                     "\"measured: DRAM, FP32; theoretical: L1, FP64, FP16, Tensor\""),
            std::string::npos)
      << csv;
  // The points are assessed under the measured roofs: saxpy is DRAM-bound at 3.0 TB/s x its intensity.
  auto saxpy = std::find_if(data.points.begin(), data.points.end(),
                            [](const auto& p) { return p.label.rfind("saxpy", 0) == 0; });
  ASSERT_NE(saxpy, data.points.end());
  auto assessment = assessPoint(*saxpy, data.roofs[0]);
  EXPECT_DOUBLE_EQ(*assessment.attainableFlopsPerSecond, *assessment.intensityOf(MemoryLevel::Dram) * 3.0e12);
  std::filesystem::remove(path);
}

TEST(DevicePeaks, TraceDeviceMatchedByUuidThenModel) {
  auto db = openTraceFile(kTrace);
  EXPECT_EQ(matchTraceDevice(db, "GPU-0EF79E88-2755-C950-5BF6-0D309CF81A3A", "other"), 0u);
  EXPECT_EQ(matchTraceDevice(db, "11111111-2222-3333-4444-555555555555", kH100), 0u);  // same model
  EXPECT_FALSE(matchTraceDevice(db, "11111111-2222-3333-4444-555555555555", "NVIDIA A100-SXM4-80GB"));
  EXPECT_FALSE(matchTraceDevice(db, "", ""));
}

TEST(DevicePeaks, HostileRowsAreSkippedAndForeignTablesRefused) {
  auto path = processTempPath("gpuscope_peaks", "hostile.sqlite");
  {
    auto db = Database::create(path);
    db.exec(createTableSql(tableSpec(table::kStringIds)));
    db.exec(createTableSql(tableSpec(table::kKernel)));
    // Without the NOT NULL constraints, and without the optional columns: a hand-made or older table.
    db.exec("CREATE TABLE GPUSCOPE_DEVICE_PEAKS (deviceId INTEGER, kind TEXT, value REAL)");
    db.exec(
        "INSERT INTO GPUSCOPE_DEVICE_PEAKS (deviceId, kind, value) VALUES (0, 'fp32', 1e13), "
        "(0, 'warp', 1e13), (0, 'dram', -5), (0, 'l2', 'fast'), (0, 'l1', 1e999), (0, 'fp64', NULL)");
  }
  auto peaks = readDevicePeaks(openTraceFile(path));
  ASSERT_EQ(peaks.size(), 1u);
  EXPECT_EQ(peaks[0].kind, "fp32");
  EXPECT_EQ(peaks[0].measuredAt, 0);
  {
    auto db = Database::create(path);
    db.exec(createTableSql(tableSpec(table::kStringIds)));
    db.exec(createTableSql(tableSpec(table::kKernel)));
    db.exec("CREATE TABLE GPUSCOPE_DEVICE_PEAKS (deviceId INTEGER, what TEXT)");
  }
  EXPECT_THROW(readDevicePeaks(openTraceFile(path)), TraceError);
  EXPECT_THROW(writeDevicePeaks(path, {peak("fp32", 1e13)}), TraceError);
  EXPECT_THROW(writeDevicePeaks(kFixtures + "/nsys/transpose_ncu_metrics.csv", {peak("fp32", 1e13)}), TraceError);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
