// Theoretical occupancy against cases worked out by hand from the CUDA occupancy rules.
#include "core/details/occupancy.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

// The limits TARGET_INFO_GPU records for an H100 (compute capability 9.0), as in transpose.sqlite.
DeviceInfo h100() {
  DeviceInfo d;
  d.computeMajor = 9;
  d.computeMinor = 0;
  d.threadsPerWarp = 32;
  d.maxWarpsPerSm = 64;
  d.maxBlocksPerSm = 32;
  d.maxThreadsPerBlock = 1024;
  d.maxRegistersPerSm = 65536;
  d.maxRegistersPerBlock = 65536;
  d.maxShmemPerSm = 233472;          // 228 KiB
  d.maxShmemPerBlockOptin = 232448;  // 227 KiB
  return d;
}

// A Turing-like device (compute capability 7.5): 32 warps and 16 blocks per SM, 64 KiB shared memory.
DeviceInfo turing() {
  DeviceInfo d = h100();
  d.computeMajor = 7;
  d.computeMinor = 5;
  d.maxWarpsPerSm = 32;
  d.maxBlocksPerSm = 16;
  d.maxShmemPerSm = 65536;
  d.maxShmemPerBlockOptin = 65536;
  return d;
}

TEST(Occupancy, FullOccupancyLimitedByWarpsAndRegisters) {
  // 256 threads = 8 warps. Warps: 64 / 8 = 8 blocks. Blocks: 32.
  // Registers: 32 * 32 = 1024 per warp; 65536 / 4 sub-partitions = 16384, 16384 / 1024 = 16 warps each,
  // 64 warps per SM, 64 / 8 = 8 blocks. Shared memory: 0 + 1 KiB reserve = 1024 B, 233472 / 1024 = 228.
  // Active: 8 blocks, 64 warps, 64 / 64 = 100 %.
  auto o = computeOccupancy(h100(), 256, 32, 0);
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.warpsPerBlock, 8);
  EXPECT_EQ(o.blocksByWarps, 8);
  EXPECT_EQ(o.blocksByBlocks, 32);
  EXPECT_EQ(o.blocksByRegisters, 8);
  EXPECT_EQ(o.blocksBySharedMemory, 228);
  EXPECT_EQ(o.activeBlocksPerSm, 8);
  EXPECT_EQ(o.activeWarpsPerSm, 64);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 100.0);
  EXPECT_TRUE(o.limitedBy(OccupancyLimit::Warps));
  EXPECT_TRUE(o.limitedBy(OccupancyLimit::Registers));
  EXPECT_FALSE(o.limitedBy(OccupancyLimit::SharedMemory));
  EXPECT_EQ(bindingLimitsText(o), "warps per SM, registers");
}

TEST(Occupancy, ManyRegistersLimitByRegisters) {
  // 255 registers * 32 threads = 8160, rounded up to 256: 8192 per warp. One block of 8 warps needs
  // 65536 <= 65536 per block, so it launches. 16384 / 8192 = 2 warps per sub-partition, 8 per SM: 1 block.
  // Occupancy 8 / 64 = 12.5 %.
  auto o = computeOccupancy(h100(), 256, 255, 0);
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.registersPerWarp, 8192);
  EXPECT_EQ(o.blocksByRegisters, 1);
  EXPECT_EQ(o.activeWarpsPerSm, 8);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 12.5);
  EXPECT_EQ(o.binding, static_cast<uint8_t>(OccupancyLimit::Registers));
}

TEST(Occupancy, RegistersAreSplitOverSubPartitions) {
  // 96 threads = 3 warps, 40 registers: 1280 per warp. Per sub-partition 16384 / 1280 = 12.8 -> 12 warps,
  // 48 per SM, 48 / 3 = 16 blocks (a single pool would give 51 warps, 17 blocks). Warps: 64 / 3 = 21.
  // Active 16 blocks, 48 warps: 75 %.
  auto o = computeOccupancy(h100(), 96, 40, 0);
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.blocksByWarps, 21);
  EXPECT_EQ(o.blocksByRegisters, 16);
  EXPECT_EQ(o.activeWarpsPerSm, 48);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 75.0);
  EXPECT_EQ(bindingLimitsText(o), "registers");
}

TEST(Occupancy, LargeSharedMemoryLimitsBySharedMemory) {
  // 128 threads = 4 warps, 48 KiB: 49152 + 1024 reserve = 50176 B (a multiple of 128).
  // 233472 / 50176 = 4.65 -> 4 blocks, 16 warps: 25 %. Warps and registers allow 16 blocks.
  auto o = computeOccupancy(h100(), 128, 32, 49152);
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.sharedMemoryPerBlock, 50176);
  EXPECT_EQ(o.blocksBySharedMemory, 4);
  EXPECT_EQ(o.blocksByWarps, 16);
  EXPECT_EQ(o.activeWarpsPerSm, 16);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 25.0);
  EXPECT_EQ(bindingLimitsText(o), "shared memory");
}

TEST(Occupancy, SharedMemoryRoundsToAllocationUnitWithReserve) {
  // 100 B + 1024 B reserve = 1124 B, rounded up to 128: 1152 B; 233472 / 1152 = 202.67 -> 202.
  EXPECT_EQ(computeOccupancy(h100(), 256, 32, 100).blocksBySharedMemory, 202);
  // Before compute capability 8.0: no reserve, 256-byte unit: 10000 -> 10240; 65536 / 10240 = 6.4 -> 6.
  auto o = computeOccupancy(turing(), 256, 32, 10000);
  EXPECT_EQ(o.sharedMemoryPerBlock, 10240);
  EXPECT_EQ(o.blocksBySharedMemory, 6);
  // Warps: 32 / 8 = 4 blocks bind first: 32 warps of 32, 100 %.
  EXPECT_EQ(o.activeBlocksPerSm, 4);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 100.0);
}

TEST(Occupancy, SmallBlocksLimitByBlocksPerSm) {
  // 32 threads = 1 warp: warps allow 64 blocks, the SM holds 32: 32 warps, 50 %.
  auto o = computeOccupancy(h100(), 32, 16, 0);
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.blocksByWarps, 64);
  EXPECT_EQ(o.activeBlocksPerSm, 32);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 50.0);
  EXPECT_EQ(bindingLimitsText(o), "blocks per SM");
}

TEST(Occupancy, ConfiguredCarveoutIsTheSharedMemoryPerSm) {
  // transposeShared in transpose.sqlite: 256 threads, 26 registers, 4224 B static, 100 KiB configured.
  // 4224 + 1024 = 5248 B; 102400 / 5248 = 19.5 -> 19 blocks. Registers: 26 * 32 = 832 -> 1024 per warp,
  // 8 blocks. Warps: 8 blocks. 100 %.
  auto o = computeOccupancy(h100(), KernelResources{256, 26, 4224, 102400});
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.sharedMemoryPerSm, 102400);
  EXPECT_EQ(o.blocksBySharedMemory, 19);
  EXPECT_EQ(o.registersPerWarp, 1024);
  EXPECT_DOUBLE_EQ(o.occupancyPercent, 100.0);
}

TEST(Occupancy, BlocksThatCannotLaunch) {
  auto shared = computeOccupancy(h100(), 256, 32, 240000);  // more than the 227 KiB opt-in maximum
  EXPECT_FALSE(shared.valid);
  EXPECT_EQ(shared.blocksBySharedMemory, 0);
  EXPECT_EQ(shared.occupancyPercent, 0.0);
  EXPECT_NE(shared.problem.find("shared memory"), std::string::npos);

  // 1024 threads = 32 warps at 128 registers: 4096 per warp, 131072 per block > 65536.
  auto registers = computeOccupancy(h100(), 1024, 128, 0);
  EXPECT_FALSE(registers.valid);
  EXPECT_EQ(registers.blocksByRegisters, 0);
  EXPECT_NE(registers.problem.find("registers"), std::string::npos);

  EXPECT_FALSE(computeOccupancy(h100(), 2048, 16, 0).valid);  // over 1024 threads per block
  EXPECT_FALSE(computeOccupancy(h100(), 0, 16, 0).valid);
  EXPECT_FALSE(computeOccupancy(DeviceInfo{}, 256, 32, 0).valid);  // a file without device limits
}

}  // namespace
}  // namespace gpuscope
