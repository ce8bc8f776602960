#pragma once
// The measurements of gpuscope-peaks, one function a roof, each returning the best rate of several timed
// launches (see peak_timing.cuh) and a line saying how it was measured.
#include <cstddef>
#include <string>

namespace gpuscope::peaks {

struct Peak {
  std::string kind;  // as GPUSCOPE_DEVICE_PEAKS names it: "dram", "l2", "l1", "fp64", "fp32", "fp16"
  double value = 0;  // bytes or FLOPs per second
  std::string method;
};

// What the kernels are sized by.
struct GpuShape {
  int smCount = 0;
  int maxThreadsPerSm = 0;
  size_t l2Bytes = 0;
  size_t freeBytes = 0;
};

Peak measureDram(const GpuShape& gpu);
Peak measureL2(const GpuShape& gpu);
Peak measureShared(const GpuShape& gpu);
Peak measureFp64(const GpuShape& gpu);
Peak measureFp32(const GpuShape& gpu);
Peak measureFp16(const GpuShape& gpu);

}  // namespace gpuscope::peaks
