// Device allocations and frees -> CUDA_GPU_MEMORY_USAGE_EVENTS rows, as nsys writes them.
#include "collector/daemon/memory_usage_rows.h"

#include <gtest/gtest.h>

#include "core/schema/nsys_enums.h"

namespace gpuscope {
namespace {

transport::MemoryUsageBody allocation() {
  transport::MemoryUsageBody body{};
  body.start = 536559174;
  body.address = 139623615430656;
  body.bytes = 134217728;
  body.deviceId = 0;
  body.contextId = 1;
  body.correlationId = 118;
  body.memKind = 2;  // Device
  body.operation = 0;
  return body;
}

TEST(MemoryUsageRows, ASynchronousAllocationAsInNsysExport) {
  // gm_transpose's first row: 536559174|globalPid|0|1|139623615430656|0|134217728|2|0||118|NULL...
  MemoryUsageRow row = memoryUsageRow(allocation(), 536559174 - 1000, 281485781237760, "");
  EXPECT_EQ(row.start, 536558174);
  EXPECT_EQ(row.globalPid, 281485781237760);
  EXPECT_EQ(row.contextId, 1);
  EXPECT_EQ(row.address, 139623615430656);
  EXPECT_EQ(row.bytes, 134217728);
  EXPECT_EQ(row.memKind, 2);
  EXPECT_EQ(row.memoryOperationType, nsys_enum::kDevMemAllocation);
  EXPECT_EQ(row.correlationId, 118);
  EXPECT_TRUE(row.name.empty());
  EXPECT_FALSE(row.streamId);
  EXPECT_FALSE(row.localPoolAddress);
  EXPECT_FALSE(row.importedPoolAddress);
}

TEST(MemoryUsageRows, AFreeKeepsItsBytesPositive) {
  transport::MemoryUsageBody body = allocation();
  body.operation = 1;
  MemoryUsageRow row = memoryUsageRow(body, 10, 1, "");
  EXPECT_EQ(row.memoryOperationType, nsys_enum::kDevMemDeallocation);
  EXPECT_EQ(row.bytes, 134217728);
}

TEST(MemoryUsageRows, PoolAllocationsCarryTheirStreamAndPool) {
  transport::MemoryUsageBody body = allocation();
  body.streamId = 7;
  body.poolType = 1;  // local
  body.poolAddress = 0x7000;
  body.poolReleaseThreshold = 0;
  body.poolSizeOrProcessId = 1 << 25;
  body.poolUtilizedSize = 1 << 20;
  MemoryUsageRow local = memoryUsageRow(body, 0, 1, "");
  EXPECT_EQ(local.streamId, 7);
  EXPECT_EQ(local.localPoolAddress, 0x7000);
  EXPECT_EQ(local.localPoolSize, 1 << 25);
  EXPECT_EQ(local.localPoolUtilizedSize, 1 << 20);
  EXPECT_FALSE(local.importedPoolAddress);
  body.poolType = 2;  // imported
  body.poolSizeOrProcessId = 4242;
  MemoryUsageRow imported = memoryUsageRow(body, 0, 1, "");
  EXPECT_EQ(imported.importedPoolAddress, 0x7000);
  EXPECT_EQ(imported.importedPoolProcessId, 4242);
  EXPECT_FALSE(imported.localPoolAddress);
}

TEST(MemoryUsageRows, StaticVariablesKeepTheirName) {
  transport::MemoryUsageBody body = allocation();
  body.memKind = 5;  // Device Static
  MemoryUsageRow row = memoryUsageRow(body, 0, 1, "_ZN6cublas8internal15deviceConstantsE");
  EXPECT_EQ(row.name, "_ZN6cublas8internal15deviceConstantsE");
  EXPECT_EQ(row.memKind, 5);
}

}  // namespace
}  // namespace gpuscope
