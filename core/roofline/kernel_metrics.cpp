#include "core/roofline/kernel_metrics.h"

namespace gpuscope {

std::string_view precisionName(Precision precision) {
  switch (precision) {
    case Precision::Fp64:
      return "FP64";
    case Precision::Fp32:
      return "FP32";
    case Precision::Fp16:
      return "FP16";
    case Precision::Tensor:
      return "Tensor";
  }
  return "?";
}

std::string_view memoryLevelName(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::Dram:
      return "DRAM";
    case MemoryLevel::L2:
      return "L2";
    case MemoryLevel::L1:
      return "L1";
  }
  return "?";
}

}  // namespace gpuscope
