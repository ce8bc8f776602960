#pragma once
// Theoretical occupancy: how many blocks and warps of a kernel fit on one SM, and which resource limits it.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/model/trace.h"

namespace gpuscope {

// What a kernel needs per block, as the kernel table records it.
struct KernelResources {
  int blockThreads = 0;  // blockX * blockY * blockZ
  int registersPerThread = 0;
  int64_t sharedMemoryBytes = 0;  // static + dynamic shared memory of one block
  // Shared memory the driver configured per SM for the launch (the kernel table's sharedMemoryExecuted);
  // 0 means "not recorded": the device's maximum per SM is used instead.
  int64_t sharedMemoryConfigBytes = 0;
};

enum class OccupancyLimit : uint8_t { Warps = 1, Blocks = 2, Registers = 4, SharedMemory = 8 };

struct TheoreticalOccupancy {
  bool valid = false;   // false when the device limits are unknown or the block cannot launch at all
  std::string problem;  // why, when not valid (one sentence)
  int warpsPerBlock = 0;
  // Blocks per SM each resource allows (INT32_MAX when the resource does not limit).
  int blocksByWarps = 0;
  int blocksByBlocks = 0;
  int blocksByRegisters = 0;
  int blocksBySharedMemory = 0;
  int activeBlocksPerSm = 0;
  int activeWarpsPerSm = 0;
  int maxWarpsPerSm = 0;
  double occupancyPercent = 0.0;     // active warps / maximum warps per SM, in percent
  uint8_t binding = 0;               // OccupancyLimit bits of every resource that allows only activeBlocksPerSm
  int registersPerWarp = 0;          // after rounding to the allocation unit
  int64_t sharedMemoryPerBlock = 0;  // after adding the driver's reserve and rounding to the allocation unit
  int64_t sharedMemoryPerSm = 0;     // the shared memory the blocks compete for

  bool limitedBy(OccupancyLimit limit) const { return (binding & static_cast<uint8_t>(limit)) != 0; }
};

// The CUDA occupancy rules applied (CUDA C Programming Guide, "Compute Capabilities", and the
// occupancy calculator's model), for compute capability 7.0 and later (Volta, Turing, Ampere 8.x,
// Ada 8.9, Hopper 9.0); older devices use the same rules with their own granularities:
//  - warps per block = ceil(block threads / warp size); a block needs whole warps.
//  - warps: floor(max warps per SM / warps per block) blocks.
//  - blocks: the device's maximum resident blocks per SM (32 on 8.0 and 9.0, 16 on 8.6, 24 on 8.9).
//  - registers: allocated per warp in units of 256 registers, so a warp takes
//    ceil(registers per thread * 32 / 256) * 256. The register file is split evenly over the SM's 4
//    sub-partitions (2 on 6.0) and a warp's registers come from one of them, so
//    warps by registers = sub-partitions * floor(registers per SM / sub-partitions / registers per warp),
//    and blocks = floor(that / warps per block). A block whose warps need more than the per-block
//    register limit (checked, as the hardware does, with its warps rounded up to a multiple of the
//    sub-partitions), or more than 255 registers per thread, cannot launch.
//  - shared memory: from compute capability 8.0 the driver reserves 1 KiB of shared memory per block
//    for system use; a block's shared memory plus that reserve is rounded up to the allocation unit
//    (128 bytes from 8.0, 256 bytes before) and blocks = floor(shared memory per SM / that). The shared
//    memory per SM is the carveout the driver configured for the launch when the file records it,
//    otherwise the device maximum. A block asking for more than the opt-in per-block maximum cannot launch.
// Active blocks = the smallest of the four; occupancy = active blocks * warps per block / max warps per SM.
TheoreticalOccupancy computeOccupancy(const DeviceInfo& device, const KernelResources& kernel);
TheoreticalOccupancy computeOccupancy(const DeviceInfo& device, int blockThreads, int registersPerThread,
                                      int64_t sharedMemoryBytes);

// "warps per SM, registers" style list of the binding limits.
std::string bindingLimitsText(const TheoreticalOccupancy& occupancy);
std::string_view occupancyLimitName(OccupancyLimit limit);

}  // namespace gpuscope
