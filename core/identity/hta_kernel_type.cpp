#include "core/identity/hta_kernel_type.h"

namespace gpuscope {

const char* htaKernelTypeName(HtaKernelType type) {
  switch (type) {
    case HtaKernelType::Communication:
      return "COMMUNICATION";
    case HtaKernelType::Memory:
      return "MEMORY";
    case HtaKernelType::Computation:
      return "COMPUTATION";
    case HtaKernelType::Other:
      return "OTHER";
  }
  return "OTHER";
}

HtaKernelType htaKernelType(std::string_view name) {
  auto startsWith = [name](std::string_view prefix) { return name.substr(0, prefix.size()) == prefix; };
  auto contains = [name](std::string_view part) { return name.find(part) != std::string_view::npos; };
  bool nccl = startsWith("nccl") && name.find("Kernel", 4) != std::string_view::npos;
  if (nccl) return HtaKernelType::Communication;
  if (startsWith("Memcpy") || startsWith("Memset") || startsWith("dma")) return HtaKernelType::Memory;
  // HTA's test for computation rejects a name with "Memcpy" or "Sync" anywhere, or starting with "Memset".
  if (contains("Memcpy") || contains("Sync")) return HtaKernelType::Other;
  return HtaKernelType::Computation;
}

}  // namespace gpuscope
