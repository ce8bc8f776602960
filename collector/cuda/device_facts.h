#pragma once
// DeviceFacts: what TARGET_INFO_GPU holds about one GPU, read from the CUDA driver the program
// already loaded (occupancy and roofline need every column).
#include <cstdint>
#include <string>

#include "collector/transport/records.h"

namespace gpuscope::cuda {

struct DeviceFacts {
  transport::GpuBody body{};
  std::string name;
  std::string uuid;         // "0ef79e88-2755-c950-5bf6-0d309cf81a3a"
  std::string busLocation;  // "0000:00:06.0"
  std::string chipName;     // "GH100"
};

// False when the driver is not loaded or does not know the device ordinal DEVICE.
bool readDeviceFacts(uint32_t device, DeviceFacts& facts);

}  // namespace gpuscope::cuda
