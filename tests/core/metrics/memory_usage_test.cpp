// Device memory over time from nsys's CUDA_GPU_MEMORY_USAGE_EVENTS: the running totals and the peak, checked
// against an SQL running sum over the same file.
#include "core/metrics/memory_usage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/db/sqlite_database.h"
#include "tests/core/testing/metrics_fixtures.h"

namespace gpuscope {
namespace {

// The peak of an SQL running sum of allocations less frees, in time order, of device-memory kinds.
int64_t sqlPeak(const Database& db, int deviceId) {
  Statement statement = db.prepare(
      "SELECT max(total) FROM (SELECT sum(CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END) "
      "OVER (ORDER BY start, rowid) AS total FROM CUDA_GPU_MEMORY_USAGE_EVENTS "
      "WHERE memKind NOT IN (0, 1) AND deviceId = ?1)");
  statement.bind(1, int64_t{deviceId});
  EXPECT_TRUE(statement.step());
  return statement.int64(0);
}

class MemoryFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(MemoryFixture, PeakEqualsTheRunningSumOfTheEvents) {
  Database db = Database::openReadOnly(testing::gpuMetricsFixture(GetParam()));
  MemoryUsage usage = readMemoryUsage(db);
  ASSERT_FALSE(usage.empty());
  EXPECT_EQ(usage.refusedRows, 0u);
  EXPECT_EQ(usage.unmatchedFrees, 0u);
  MemoryUsage::Peak peak = usage.devicePeak(0);
  EXPECT_EQ(peak.bytes, sqlPeak(db, 0));
  EXPECT_GT(peak.bytes, 0);
  ASSERT_EQ(usage.processes.size(), 1u);
  const ProcessMemory& process = usage.processes[0];
  EXPECT_EQ(process.peak, peak.bytes);
  EXPECT_EQ(process.allocated[process.peakStep], process.peak);
  EXPECT_EQ(process.time[process.peakStep], process.peakTime);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, MemoryFixture, ::testing::Values("gm_transpose", "gm_loader2"));

TEST(MemoryUsage, TransposeHoldsItsTwoDeviceBuffersAndNotItsPinnedOne) {
  MemoryUsage usage = readMemoryUsage(Database::openReadOnly(testing::gpuMetricsFixture("gm_transpose")));
  // Two 128 MiB device buffers; the third allocation is pinned host memory.
  EXPECT_EQ(usage.devicePeak(0).bytes, 2 * 134217728);
  EXPECT_EQ(usage.events.size(), 3u);
}

struct Row {
  int64_t start;
  int64_t op;
  int64_t bytes;
  int64_t address;
  int64_t pid = 100;
};

std::string fileWith(const std::string& name, std::initializer_list<Row> rows) {
  std::string path = ::testing::TempDir() + name;
  std::filesystem::remove(path);
  Database db = Database::create(path);
  db.exec(
      "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, deviceId INTEGER, "
      "contextId INTEGER, address INTEGER, pc INTEGER, bytes INTEGER, memKind INTEGER, memoryOperationType "
      "INTEGER, name TEXT, correlationId INTEGER, streamId INTEGER)");
  for (const Row& row : rows)
    db.exec("INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (" + std::to_string(row.start) + ", " +
            std::to_string(row.pid) + ", 0, 1, " + std::to_string(row.address) + ", 0, " + std::to_string(row.bytes) +
            ", 2, " + std::to_string(row.op) + ", NULL, 7, NULL)");
  return path;
}

// A free that gives no size takes away the live allocation at its address; one at an unknown address is counted.
TEST(MemoryUsage, FreesWithoutASizeTakeTheAllocationAtTheirAddress) {
  std::string path = fileWith(
      "memory_frees.sqlite",
      {{10, 0, 100, 0xA}, {20, 0, 50, 0xB}, {30, 1, 0, 0xA}, {40, 1, 0, 0xC}, {50, 0, 70, 0xD}, {60, 1, 50, 0xB}});
  MemoryUsage usage = readMemoryUsage(Database::openReadOnly(path));
  ASSERT_EQ(usage.processes.size(), 1u);
  const ProcessMemory& process = usage.processes[0];
  EXPECT_EQ(process.allocated, (std::vector<int64_t>{100, 150, 50, 120, 70}));
  EXPECT_EQ(process.peak, 150);
  EXPECT_EQ(process.peakTime, 20);
  EXPECT_EQ(usage.unmatchedFrees, 1u);
  EXPECT_EQ(process.stepAt(5), -1);
  EXPECT_EQ(process.stepAt(35), 2);
  EXPECT_EQ(usage.events[static_cast<size_t>(process.event[2])].address, 0xA);
}

// Two processes on one GPU: the device's peak is of their sum, which neither process's own peak shows.
TEST(MemoryUsage, TheDevicePeakAddsEveryProcess) {
  std::string path =
      fileWith("memory_two.sqlite",
               {{10, 0, 100, 0xA, 100}, {20, 0, 80, 0xB, 200}, {30, 1, 100, 0xA, 100}, {40, 0, 90, 0xC, 100}});
  MemoryUsage usage = readMemoryUsage(Database::openReadOnly(path));
  ASSERT_EQ(usage.processes.size(), 2u);
  EXPECT_EQ(usage.devicePeak(0).bytes, 180);
  EXPECT_EQ(usage.devicePeak(0).time, 20);
}

TEST(MemoryUsage, ATextSizeIsRefusedAndNamed) {
  std::string path = fileWith("memory_text.sqlite", {{10, 0, 100, 0xA}});
  {
    Database db = Database::openWritable(path);
    db.exec("INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (20, 100, 0, 1, 11, 0, 'big', 2, 0, NULL, NULL, NULL)");
  }
  MemoryUsage usage = readMemoryUsage(Database::openReadOnly(path));
  EXPECT_EQ(usage.events.size(), 1u);
  EXPECT_EQ(usage.refusedRows, 1u);
  EXPECT_NE(usage.refusedWhy.find("not an integer"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope
