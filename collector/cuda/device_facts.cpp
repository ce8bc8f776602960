#include "collector/cuda/device_facts.h"

#include <cuda.h>
#include <cupti_target.h>
#include <dlfcn.h>

#include <cstdio>
#include <string>

namespace gpuscope::cuda {
namespace {

// The driver entry points we need, from the libcuda the program loaded (we never load it).
struct Driver {
  CUresult (*getAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*getName)(char*, int, CUdevice) = nullptr;
  CUresult (*totalMemory)(size_t*, CUdevice) = nullptr;
  CUresult (*getUuid)(CUuuid*, CUdevice) = nullptr;
  CUresult (*getBusId)(char*, int, CUdevice) = nullptr;
  CUresult (*getDevice)(CUdevice*, int) = nullptr;

  bool load() {
    void* library = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_NOW);
    if (!library) return false;
    getAttribute = reinterpret_cast<decltype(getAttribute)>(dlsym(library, "cuDeviceGetAttribute"));
    getName = reinterpret_cast<decltype(getName)>(dlsym(library, "cuDeviceGetName"));
    totalMemory = reinterpret_cast<decltype(totalMemory)>(dlsym(library, "cuDeviceTotalMem_v2"));
    getUuid = reinterpret_cast<decltype(getUuid)>(dlsym(library, "cuDeviceGetUuid_v2"));
    if (!getUuid) getUuid = reinterpret_cast<decltype(getUuid)>(dlsym(library, "cuDeviceGetUuid"));
    getBusId = reinterpret_cast<decltype(getBusId)>(dlsym(library, "cuDeviceGetPCIBusId"));
    getDevice = reinterpret_cast<decltype(getDevice)>(dlsym(library, "cuDeviceGet"));
    return getAttribute && getDevice;
  }
};

}  // namespace

bool readDeviceFacts(uint32_t ordinal, DeviceFacts& facts) {
  static Driver driver;
  static bool loaded = driver.load();
  if (!loaded) return false;
  CUdevice device = 0;
  if (driver.getDevice(&device, static_cast<int>(ordinal)) != CUDA_SUCCESS) return false;
  auto attribute = [&](CUdevice_attribute which) -> int64_t {
    int value = 0;
    return driver.getAttribute(&value, which, device) == CUDA_SUCCESS ? value : -1;
  };
  transport::GpuBody& b = facts.body;
  b.deviceId = ordinal;
  b.computeMajor = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
  b.computeMinor = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
  b.smCount = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  b.threadsPerWarp = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  int64_t threadsPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  b.maxWarpsPerSm =
      b.threadsPerWarp > 0 && threadsPerSm > 0 ? static_cast<int32_t>(threadsPerSm / b.threadsPerWarp) : -1;
  b.maxBlocksPerSm = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR));
  b.maxThreadsPerBlock = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  b.maxRegistersPerBlock = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
  b.maxRegistersPerSm = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR));
  b.maxBlockDimX = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
  b.maxBlockDimY = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y));
  b.maxBlockDimZ = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
  b.maxGridDimX = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  b.maxGridDimY = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  b.maxGridDimZ = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  b.asyncEngines = static_cast<int32_t>(attribute(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT));
  int64_t integrated = attribute(CU_DEVICE_ATTRIBUTE_INTEGRATED);
  b.isDiscrete = integrated < 0 ? -1 : (integrated ? 0 : 1);
  b.maxIPC = -1;  // the driver does not tell
  b.maxShmemPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  b.maxShmemPerBlockOptin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  b.maxShmemPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  b.l2CacheSize = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  b.constantMemory = attribute(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
  int64_t clockKhz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  b.clockRate = clockKhz > 0 ? clockKhz * 1000 : -1;
  // Peak DRAM bandwidth as nsys reports it: double data rate x bus width.
  int64_t memoryKhz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  int64_t busBits = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  b.memoryBandwidth = memoryKhz > 0 && busBits > 0 ? memoryKhz * 1000 * 2 * (busBits / 8) : -1;
  size_t bytes = 0;
  b.totalMemory =
      driver.totalMemory && driver.totalMemory(&bytes, device) == CUDA_SUCCESS ? static_cast<int64_t>(bytes) : -1;

  char text[256] = {};
  if (driver.getName && driver.getName(text, sizeof text - 1, device) == CUDA_SUCCESS) facts.name = text;
  CUuuid uuid{};
  if (driver.getUuid && driver.getUuid(&uuid, device) == CUDA_SUCCESS) {
    const auto* u = reinterpret_cast<const unsigned char*>(uuid.bytes);
    char formatted[40];
    std::snprintf(formatted, sizeof formatted, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                  u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    facts.uuid = formatted;
  }
  char bus[64] = {};
  if (driver.getBusId && driver.getBusId(bus, sizeof bus - 1, device) == CUDA_SUCCESS) {
    // The driver writes an 8-digit PCI domain ("00000000:00:06.0"); nsys shows 4 digits.
    std::string location = bus;
    size_t colon = location.find(':');
    if (colon == 8 && location.compare(0, 4, "0000") == 0) location.erase(0, 4);
    facts.busLocation = location;
  }
  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = ordinal;
  if (cuptiDeviceGetChipName(&chip) == CUPTI_SUCCESS && chip.pChipName) facts.chipName = chip.pChipName;

  b.nameLength = static_cast<uint32_t>(facts.name.size());
  b.uuidLength = static_cast<uint32_t>(facts.uuid.size());
  b.busLocationLength = static_cast<uint32_t>(facts.busLocation.size());
  b.chipNameLength = static_cast<uint32_t>(facts.chipName.size());
  return true;
}

}  // namespace gpuscope::cuda
