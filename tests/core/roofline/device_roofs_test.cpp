#include "core/roofline/device_roofs.h"

#include <gtest/gtest.h>

#include "core/model/target_info.h"
#include "core/model/trace_file.h"
#include "core/ncu/ncu_report.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;

DeviceInfo fixtureH100() {
  auto devices = readDevices(openTraceFile(kFixtures + "/nsys/transpose.sqlite"));
  EXPECT_EQ(devices.size(), 1u);
  return devices.at(0);
}

TEST(DeviceRoofs, H100FromTargetInfo) {
  auto device = fixtureH100();
  ASSERT_EQ(device.smCount, 132);
  ASSERT_EQ(device.clockRate, 1980000000);
  auto roofs = deviceRoofs(device);
  EXPECT_EQ(roofs.architecture, "Hopper (sm_90)");
  EXPECT_EQ(roofs.deviceName, "NVIDIA H100 80GB HBM3");
  // 132 SMs x 1.98 GHz x FLOP/clk/SM.
  EXPECT_DOUBLE_EQ(roofs.peak(Precision::Fp32), 132 * 256 * 1.98e9);  // 66.9 TFLOP/s
  EXPECT_DOUBLE_EQ(roofs.peak(Precision::Fp64), 132 * 128 * 1.98e9);  // 33.5 TFLOP/s
  EXPECT_DOUBLE_EQ(roofs.peak(Precision::Fp16), 132 * 512 * 1.98e9);  // 133.8 TFLOP/s
  EXPECT_DOUBLE_EQ(roofs.peak(Precision::Tensor), 132 * 4096 * 1.98e9);
  EXPECT_DOUBLE_EQ(roofs.bandwidthOf(MemoryLevel::Dram), 3352320000000.0);
  EXPECT_DOUBLE_EQ(roofs.bandwidthOf(MemoryLevel::L1), 132 * 128 * 1.98e9);
  EXPECT_EQ(roofs.bandwidthOf(MemoryLevel::L2), 0.0);  // not published for Hopper
}

// The peaks ncu printed for this H100 in its SpeedOfLight_RooflineChart section (a separate run, at the SM
// and DRAM frequencies it measured), against ours from TARGET_INFO_GPU and the architecture table.
TEST(DeviceRoofs, AgreeWithNcuRooflineSection) {
  auto roofs = deviceRoofs(fixtureH100());
  auto report = readNcuCsvFile(kFixtures + "/nsys/transpose_ncu_roofline.csv");
  ASSERT_EQ(report.kernels.size(), 4u);
  const std::string chart = "GPU Speed Of Light Roofline Chart";
  for (const auto& kernel : report.kernels) {
    // Per-SM rates: ncu's per-cycle thread instructions over 132 SMs.
    EXPECT_EQ(*kernel.value(chart, "", "Theoretical Predicated-On FFMA Thread Instructions Executed") / 132, 128.0);
    EXPECT_EQ(*kernel.value(chart, "", "Theoretical Predicated-On DFMA Thread Instructions Executed") / 132, 64.0);
    double smHz = *kernel.value(chart, "Single Precision Roofline", "SM Frequency");
    double fp32 = *kernel.value(chart, "Single Precision Roofline", "Theoretical Predicated-On FFMA Operations") * smHz;
    double fp64 = *kernel.value(chart, "Double Precision Roofline", "Theoretical Predicated-On DFMA Operations") *
                  *kernel.value(chart, "Double Precision Roofline", "SM Frequency");
    double dram = *kernel.value(chart, "Single Precision Roofline", "Theoretical DRAM Bytes Accessible") *
                  *kernel.value(chart, "Single Precision Roofline", "DRAM Frequency");
    EXPECT_NEAR(roofs.peak(Precision::Fp32) / fp32, 1.0, 0.005) << fp32;
    EXPECT_NEAR(roofs.peak(Precision::Fp64) / fp64, 1.0, 0.005) << fp64;
    EXPECT_NEAR(roofs.bandwidthOf(MemoryLevel::Dram) / dram, 1.0, 0.005) << dram;
    // ncu: "The ratio of peak float (FP32) to double (FP64) performance on this device is 2:1."
    EXPECT_DOUBLE_EQ(roofs.peak(Precision::Fp32) / roofs.peak(Precision::Fp64), 2.0);
  }
}

TEST(DeviceRoofs, UnknownArchitectureKeepsOnlyDram) {
  DeviceInfo device;
  device.computeMajor = 3;
  device.smCount = 10;
  device.clockRate = 1000000000;
  device.memoryBandwidth = 1000;
  auto roofs = deviceRoofs(device);
  EXPECT_TRUE(roofs.architecture.empty());
  EXPECT_EQ(roofs.peak(Precision::Fp32), 0.0);
  EXPECT_EQ(roofs.bandwidthOf(MemoryLevel::Dram), 1000.0);
  EXPECT_EQ(architectureRates(3, 0), nullptr);
  ASSERT_NE(architectureRates(8, 0), nullptr);
  EXPECT_EQ(architectureRates(8, 0)->flopsPerClockPerSm[static_cast<size_t>(Precision::Fp64)], 64.0);
  EXPECT_EQ(roofs.sourceSummary(), "theoretical; unknown: sm_30 is not in gpuscope's architecture table");
}

// A PyTorch trace names the GPU and its SMs but not its clock or memory bandwidth: no roof can be computed,
// and the table says why instead of "theoretical" over empty cells.
TEST(DeviceRoofs, MissingInputsAreNamedAsTheReasonForNoRoofs) {
  DeviceInfo device;
  device.name = "NVIDIA H100 80GB HBM3";
  device.computeMajor = 9;
  device.smCount = 132;
  auto roofs = deviceRoofs(device);
  EXPECT_EQ(roofs.peak(Precision::Fp32), 0.0);
  EXPECT_EQ(roofs.bandwidthOf(MemoryLevel::Dram), 0.0);
  EXPECT_EQ(roofs.sourceSummary(),
            "none: the file does not give the GPU's clock rate or memory bandwidth (`gpuscope peaks --store FILE` "
            "measures the roofs on that GPU)");
  device.smCount = 0;
  device.memoryBandwidth = 1000;
  EXPECT_EQ(deviceRoofs(device).unknownBecause.find("the file does not give the GPU's SM count or clock rate ("), 0u);
  EXPECT_EQ(deviceRoofs(DeviceInfo{}).sourceSummary(), "none: the file does not give the GPU's compute capability");
  EXPECT_EQ(deviceRoofs(fixtureH100()).unknownBecause, "");
}

}  // namespace
}  // namespace gpuscope
