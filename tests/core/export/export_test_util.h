#pragma once
// Shared pieces of the exporter tests: temporary paths, reading files back, and a small hand-made trace
// with the awkward cases (ranges that overlap without nesting, a name that is not UTF-8, two processes).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/model/global_id.h"
#include "core/write/trace_writer.h"

namespace gpuscope::test {

// A path in the temp folder, unique to the running test and removed when it ends.
struct ExportTempPath {
  explicit ExportTempPath(const std::string& name) {
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    path = (std::filesystem::temp_directory_path() /
            ("gpuscope_export_" + std::to_string(::getpid()) + "_" + test + "_" + name))
               .string();
  }
  ~ExportTempPath() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  std::string path;
};

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string fixturePath(const std::string& name) { return std::string(GPUSCOPE_FIXTURES) + "/" + name; }

inline constexpr int64_t kAwkwardSessionStart = 1795318592513940587;

// Process 100 launches two kernels (one named with a byte that is not UTF-8) and copies once; its thread
// has NVTX start/end ranges [100, 400] and [300, 600] that overlap without nesting, and a push/pop range
// inside the first. Process 200 uses the same correlation id 7 for its own launch, on another stream.
inline void writeAwkwardTrace(const std::string& path) {
  TraceWriter w(path);
  w.setSessionStart(kAwkwardSessionStart);
  w.addMeta("distributed_rank", "3");
  const int64_t pidA = global_id::make(0, 0, 100, 0), tidA = global_id::make(0, 0, 100, 100);
  const int64_t pidB = global_id::make(0, 0, 200, 0), tidB = global_id::make(0, 0, 200, 200);
  w.addProcess({pidA, 100, "trainer"});
  w.addProcess({pidB, 200, "worker"});
  w.addThreadName({tidA, "trainer", 0});
  w.addGpu({.id = 0, .name = "Test GPU", .smCount = 4});
  auto kernel = [&](TimeNs start, TimeNs end, uint32_t correlation, int64_t globalPid, uint32_t stream,
                    std::string_view name) {
    KernelRow row;
    row.start = start, row.end = end, row.streamId = stream, row.correlationId = correlation;
    row.globalPid = globalPid, row.demangledName = name, row.shortName = name;
    w.addKernel(row);
  };
  w.addCudaApi({.start = 150, .end = 160, .globalTid = tidA, .correlationId = 7, .name = "cudaLaunchKernel"});
  kernel(1000, 1100, 7, pidA, 7, "gemm");
  w.addCudaApi({.start = 170, .end = 180, .globalTid = tidA, .correlationId = 8, .name = "cudaLaunchKernel"});
  kernel(1200, 1300, 8, pidA, 7, "bad\xff\xfename");
  w.addCudaApi({.start = 190, .end = 195, .globalTid = tidA, .correlationId = 9, .name = "cudaMemcpyAsync"});
  w.addMemcpy(
      {.start = 1400, .end = 1500, .streamId = 7, .correlationId = 9, .globalPid = pidA, .bytes = 64, .copyKind = 1});
  w.addCudaApi({.start = 250,
                .end = 260,
                .kind = CudaApiKind::Driver,
                .globalTid = tidB,
                .correlationId = 7,
                .name = "cuLaunchKernel"});
  kernel(2000, 2100, 7, pidB, 9, "worker_kernel");
  w.addNvtxStartEndRange({.start = 100, .end = 400, .globalTid = tidA, .text = "first", .rangeId = 1});
  w.addNvtxStartEndRange({.start = 300, .end = 600, .globalTid = tidA, .text = "second", .rangeId = 2});
  w.addNvtxPushPopRange({.start = 120, .end = 200, .globalTid = tidA, .text = "inner"});
  w.finish();
}

}  // namespace gpuscope::test
