#include "core/identity/cuda_call_kind.h"

#include <array>

#include "core/schema/nsys_enums.h"

namespace gpuscope {
namespace {

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

}  // namespace

bool isSynchronizingCall(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kWaits = {"cudaDeviceSynchronize", "cudaStreamSynchronize",
                                                             "cudaEventSynchronize",  "cuCtxSynchronize",
                                                             "cuStreamSynchronize",   "cuEventSynchronize"};
  for (std::string_view wait : kWaits) {
    if (startsWith(name, wait)) return true;
  }
  return isBlockingCopyCall(name);
}

bool isBlockingCopyCall(std::string_view name) {
  // cudaMemcpyAsync, cudaMemcpy2DAsync, cuMemcpyHtoDAsync_v2, cudaMemsetAsync ... return at once.
  bool memoryCall = startsWith(name, "cudaMemcpy") || startsWith(name, "cudaMemset") || startsWith(name, "cuMemcpy") ||
                    startsWith(name, "cuMemset");
  return memoryCall && name.find("Async") == std::string_view::npos;
}

bool copyBlocksHost(std::string_view api, int64_t srcKind, int64_t dstKind) {
  return srcKind == nsys_enum::kMemPageable || dstKind == nsys_enum::kMemPageable || isSynchronizingCall(api);
}

bool memsetBlocksHost(std::string_view api, int64_t memKind) {
  bool pinnedOrManaged =
      memKind == nsys_enum::kMemPinned || memKind == nsys_enum::kMemManaged || memKind == nsys_enum::kMemManagedStatic;
  return pinnedOrManaged && isBlockingCopyCall(api);
}

}  // namespace gpuscope
