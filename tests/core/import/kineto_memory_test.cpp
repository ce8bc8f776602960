// The PyTorch profiler's "[memory]" events (profile_memory=True) read into CUDA_GPU_MEMORY_USAGE_EVENTS: CUDA
// allocations and frees kept with their sizes and addresses, the CPU allocator's counted and left out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/db/sqlite_database.h"
#include "core/import/kineto/kineto_import.h"
#include "core/metrics/memory_usage.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

std::string memoryEvent(double ts, int deviceType, int64_t address, int64_t bytes) {
  return R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 42, "tid": 43, "ts": )" +
         std::to_string(ts) + R"(, "args": {"Total Reserved": 4194304, "Total Allocated": 0, "Bytes": )" +
         std::to_string(bytes) + R"(, "Addr": )" + std::to_string(address) + R"(, "Device Id": 0, "Device Type": )" +
         std::to_string(deviceType) + "}}";
}

TEST(KinetoMemory, CudaAllocationsAndFreesBecomeMemoryUsageEvents) {
  std::string json = testing::processTempPath("kineto_memory", "trace.json");
  std::string sqlite = testing::processTempPath("kineto_memory", "trace.sqlite");
  std::ofstream(json) << R"({"traceEvents": [)" << memoryEvent(100.0, 1, 139623615430656, 1048576) << ", "
                      << memoryEvent(101.5, 1, 139623616479232, 524288) << ", "
                      << memoryEvent(102.0, 0, 94000000000000, 4096) << ", "
                      << memoryEvent(103.25, 1, 139623615430656, -1048576) << "]}";
  KinetoImportSummary summary = importKinetoTrace(json, sqlite);
  EXPECT_EQ(summary.memoryEvents, 3u);
  EXPECT_EQ(summary.hostMemoryEvents, 1u);
  MemoryUsage usage = readMemoryUsage(Database::openReadOnly(sqlite));
  ASSERT_EQ(usage.events.size(), 3u);
  EXPECT_EQ(usage.events[0].time, 100'000);
  EXPECT_EQ(usage.events[0].address, 139623615430656);
  EXPECT_FALSE(usage.events[0].free);
  EXPECT_TRUE(usage.events[2].free);
  EXPECT_EQ(usage.events[2].bytes, 1048576);
  EXPECT_EQ(usage.events[2].time, 103'250);
  ASSERT_EQ(usage.processes.size(), 1u);
  EXPECT_EQ(usage.processes[0].allocated, (std::vector<int64_t>{1048576, 1572864, 524288}));
  EXPECT_EQ(usage.devicePeak(0).bytes, 1572864);
  std::filesystem::remove(json);
  std::filesystem::remove(sqlite);
}

}  // namespace
}  // namespace gpuscope
