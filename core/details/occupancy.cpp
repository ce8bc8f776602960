#include "core/details/occupancy.h"

#include <algorithm>
#include <array>
#include <limits>

namespace gpuscope {
namespace {

constexpr int kUnlimited = std::numeric_limits<int>::max();
constexpr int64_t kRegisterAllocationUnit = 256;
constexpr int kMaxRegistersPerThread = 255;
constexpr int64_t kReservedSharedMemoryPerBlock = 1024;  // compute capability 8.0 and later

int64_t divideRoundUp(int64_t value, int64_t unit) { return (value + unit - 1) / unit; }
int64_t roundUp(int64_t value, int64_t unit) { return divideRoundUp(value, unit) * unit; }
int clampToInt(int64_t value) { return static_cast<int>(std::min<int64_t>(value, kUnlimited)); }

int subPartitions(const DeviceInfo& device) { return device.computeMajor == 6 && device.computeMinor == 0 ? 2 : 4; }

int64_t sharedMemoryAllocationUnit(const DeviceInfo& device) { return device.computeMajor >= 8 ? 128 : 256; }

TheoreticalOccupancy invalid(std::string problem) {
  TheoreticalOccupancy result;
  result.problem = std::move(problem);
  return result;
}

// Blocks per SM the register file allows; 0 when one block cannot get its registers.
int blocksByRegisters(const DeviceInfo& device, const KernelResources& kernel, TheoreticalOccupancy& out) {
  if (kernel.registersPerThread <= 0) return kUnlimited;
  int64_t perWarp = roundUp(int64_t{kernel.registersPerThread} * device.threadsPerWarp, kRegisterAllocationUnit);
  out.registersPerWarp = static_cast<int>(perWarp);
  int partitions = subPartitions(device);
  int64_t perBlock = perWarp * out.warpsPerBlock;
  int64_t perBlockAsHardwareChecks = perWarp * roundUp(out.warpsPerBlock, partitions);
  int64_t blockLimit = device.maxRegistersPerBlock > 0 ? device.maxRegistersPerBlock : device.maxRegistersPerSm;
  if (kernel.registersPerThread > kMaxRegistersPerThread || perBlock > blockLimit ||
      perBlockAsHardwareChecks > blockLimit)
    return 0;
  int64_t warpsPerPartition = (device.maxRegistersPerSm / partitions) / perWarp;
  return clampToInt(warpsPerPartition * partitions / out.warpsPerBlock);
}

// Blocks per SM the shared memory allows; 0 when one block asks for more than a block may have.
int blocksBySharedMemory(const DeviceInfo& device, const KernelResources& kernel, TheoreticalOccupancy& out) {
  int64_t reserve = device.computeMajor >= 8 ? kReservedSharedMemoryPerBlock : 0;
  out.sharedMemoryPerSm = kernel.sharedMemoryConfigBytes > 0 ? kernel.sharedMemoryConfigBytes : device.maxShmemPerSm;
  int64_t blockMaximum = std::max(device.maxShmemPerBlockOptin, device.maxShmemPerBlock);
  if (blockMaximum > 0 && kernel.sharedMemoryBytes > blockMaximum) return 0;
  int64_t perBlock = roundUp(kernel.sharedMemoryBytes + reserve, sharedMemoryAllocationUnit(device));
  out.sharedMemoryPerBlock = perBlock;
  if (perBlock == 0 || out.sharedMemoryPerSm <= 0) return kUnlimited;
  return clampToInt(out.sharedMemoryPerSm / perBlock);
}

std::string checkInputs(const DeviceInfo& device, const KernelResources& kernel) {
  if (device.maxWarpsPerSm <= 0 || device.threadsPerWarp <= 0 || device.maxBlocksPerSm <= 0 ||
      device.maxRegistersPerSm <= 0)
    return "The trace file does not record this device's limits per SM.";
  if (kernel.blockThreads <= 0) return "The kernel has an empty block.";
  if (device.maxThreadsPerBlock > 0 && kernel.blockThreads > device.maxThreadsPerBlock)
    return "The block has more threads than the device allows per block.";
  return {};
}

std::string launchProblem(const TheoreticalOccupancy& out) {
  if (out.blocksByRegisters == 0) return "One block needs more registers than the device gives a block.";
  if (out.blocksBySharedMemory == 0) return "One block needs more shared memory than the device gives a block.";
  return "One block has more warps than an SM can hold.";
}

}  // namespace

TheoreticalOccupancy computeOccupancy(const DeviceInfo& device, const KernelResources& kernel) {
  if (auto problem = checkInputs(device, kernel); !problem.empty()) return invalid(problem);
  TheoreticalOccupancy out;
  out.maxWarpsPerSm = device.maxWarpsPerSm;
  out.warpsPerBlock = static_cast<int>(divideRoundUp(kernel.blockThreads, device.threadsPerWarp));
  out.blocksByWarps = device.maxWarpsPerSm / out.warpsPerBlock;
  out.blocksByBlocks = device.maxBlocksPerSm;
  out.blocksByRegisters = blocksByRegisters(device, kernel, out);
  out.blocksBySharedMemory = blocksBySharedMemory(device, kernel, out);
  const std::array<std::pair<int, OccupancyLimit>, 4> limits = {
      {{out.blocksByWarps, OccupancyLimit::Warps},
       {out.blocksByBlocks, OccupancyLimit::Blocks},
       {out.blocksByRegisters, OccupancyLimit::Registers},
       {out.blocksBySharedMemory, OccupancyLimit::SharedMemory}}};
  out.activeBlocksPerSm = kUnlimited;
  for (const auto& [blocks, limit] : limits) out.activeBlocksPerSm = std::min(out.activeBlocksPerSm, blocks);
  for (const auto& [blocks, limit] : limits) {
    if (blocks == out.activeBlocksPerSm) out.binding |= static_cast<uint8_t>(limit);
  }
  out.activeWarpsPerSm = out.activeBlocksPerSm * out.warpsPerBlock;
  out.occupancyPercent = 100.0 * out.activeWarpsPerSm / device.maxWarpsPerSm;
  out.valid = out.activeBlocksPerSm > 0;
  if (!out.valid) out.problem = launchProblem(out);
  return out;
}

TheoreticalOccupancy computeOccupancy(const DeviceInfo& device, int blockThreads, int registersPerThread,
                                      int64_t sharedMemoryBytes) {
  return computeOccupancy(device, KernelResources{blockThreads, registersPerThread, sharedMemoryBytes, 0});
}

std::string_view occupancyLimitName(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::Warps:
      return "warps per SM";
    case OccupancyLimit::Blocks:
      return "blocks per SM";
    case OccupancyLimit::Registers:
      return "registers";
    case OccupancyLimit::SharedMemory:
      return "shared memory";
  }
  return "";
}

std::string bindingLimitsText(const TheoreticalOccupancy& occupancy) {
  std::string text;
  for (auto limit :
       {OccupancyLimit::Warps, OccupancyLimit::Blocks, OccupancyLimit::Registers, OccupancyLimit::SharedMemory}) {
    if (!occupancy.limitedBy(limit)) continue;
    if (!text.empty()) text += ", ";
    text += occupancyLimitName(limit);
  }
  return text;
}

}  // namespace gpuscope
