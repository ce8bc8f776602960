#pragma once
// SyntheticRun: a small trace written for a test, one host thread launching kernels on one GPU, so each
// bottleneck class can be built from the timings that define it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/write/trace_writer.h"

namespace gpuscope::testing {

inline constexpr int64_t kSyntheticPid = global_id::make(0, 0, 7, 0);
inline constexpr int64_t kSyntheticTid = global_id::make(0, 0, 7, 7);

class SyntheticRun {
 public:
  explicit SyntheticRun(const std::string& name)
      : path_((std::filesystem::path(::testing::TempDir()) /
               (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" + name + ".sqlite"))
                  .string()),
        writer_(path_) {
    writer_.addProcess({kSyntheticPid, 7, "train"});
    writer_.addThreadName({kSyntheticTid, "train"});
  }

  // A launch call [callStart, callStart + callNs) and its kernel [kernelStart, kernelStart + kernelNs).
  void launch(const std::string& kernel, TimeNs callStart, TimeNs callNs, TimeNs kernelStart, TimeNs kernelNs) {
    uint32_t correlation = apiCall("cudaLaunchKernel_v7000", callStart, callNs);
    KernelRow row;
    row.start = kernelStart;
    row.end = kernelStart + kernelNs;
    row.deviceId = 0;
    row.contextId = 1;
    row.streamId = 7;
    row.correlationId = correlation;
    row.globalPid = kSyntheticPid;
    row.demangledName = kernel;
    row.shortName = kernel;
    writer_.addKernel(row);
  }
  // A cudaMemcpyAsync call [callStart, callStart + callNs) and its 64 MiB host-to-device copy [start, start + ns),
  // from memory of SRC_KIND to DST_KIND (ENUM_CUDA_MEM_KIND: pageable, pinned, device).
  void copy(TimeNs callStart, TimeNs callNs, TimeNs start, TimeNs ns, int srcKind, int dstKind) {
    MemcpyRow row;
    row.correlationId = apiCall("cudaMemcpyAsync_v3020", callStart, callNs);
    row.start = start;
    row.end = start + ns;
    row.contextId = 1;
    row.streamId = 7;
    row.globalPid = kSyntheticPid;
    row.bytes = 64 << 20;
    row.copyKind = nsys_enum::kCopyHtoD;
    row.srcKind = srcKind;
    row.dstKind = dstKind;
    writer_.addMemcpy(row);
  }
  // Any other CUDA API call on the thread, e.g. "cudaDeviceSynchronize_v3020".
  void call(const std::string& name, TimeNs start, TimeNs ns) { apiCall(name, start, ns); }
  void range(const std::string& name, TimeNs start, TimeNs end) {
    writer_.addNvtxPushPopRange({start, end, kSyntheticTid, {}, name});
  }
  TraceWriter& writer() { return writer_; }
  // A runtime API call on the thread; its correlation id.
  uint32_t apiCall(const std::string& name, TimeNs start, TimeNs ns) {
    uint32_t correlation = ++correlation_;
    writer_.addCudaApi({start, start + ns, CudaApiKind::Runtime, kSyntheticTid, correlation, name, 0, {}});
    return correlation;
  }
  // Finishes the file and returns its path.
  std::string finish() {
    writer_.finish();
    return path_;
  }

 private:
  std::string path_;
  TraceWriter writer_;
  uint32_t correlation_ = 0;
};

}  // namespace gpuscope::testing
