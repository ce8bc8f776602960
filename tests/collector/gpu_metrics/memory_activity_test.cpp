// CUPTI's memory activity record (CUPTI_ACTIVITY_KIND_MEMORY2) -> the ring's MemoryUsageBody.
#include <gtest/gtest.h>

#include "collector/cuda/cupti_record_converter.h"

namespace gpuscope {
namespace {

CUpti_ActivityMemory4 cudaMalloc() {
  CUpti_ActivityMemory4 record{};
  record.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
  record.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  record.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  record.correlationId = 118;
  record.address = 139623615430656;
  record.bytes = 134217728;
  record.timestamp = 536559174;
  record.PC = 0x1234;
  record.deviceId = 1;
  record.contextId = 3;
  record.streamId = 9;
  return record;
}

TEST(MemoryActivity, AnAllocationInNsysEnums) {
  transport::MemoryUsageBody body{};
  ASSERT_TRUE(cuda::memoryUsageBody(cudaMalloc(), body));
  EXPECT_EQ(body.start, 536559174);
  EXPECT_EQ(body.address, 139623615430656u);
  EXPECT_EQ(body.bytes, 134217728u);
  EXPECT_EQ(body.pc, 0x1234u);
  EXPECT_EQ(body.deviceId, 1u);
  EXPECT_EQ(body.contextId, 3u);
  EXPECT_EQ(body.correlationId, 118u);
  EXPECT_EQ(body.memKind, 2);  // ENUM_CUDA_MEM_KIND Device (CUPTI's 3)
  EXPECT_EQ(body.operation, 0);
  EXPECT_EQ(body.poolType, 0u);
  EXPECT_EQ(body.nameLength, 0u);
}

TEST(MemoryActivity, AFreeAStaticVariableAndAPool) {
  CUpti_ActivityMemory4 record = cudaMalloc();
  record.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
  record.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC;
  record.name = "_ZN6cublas8internal15deviceConstantsE";
  record.memoryPoolConfig.memoryPoolType = CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL;
  record.memoryPoolConfig.address = 0x7000;
  record.memoryPoolConfig.pool.size = 1 << 25;
  transport::MemoryUsageBody body{};
  ASSERT_TRUE(cuda::memoryUsageBody(record, body));
  EXPECT_EQ(body.operation, 1);
  EXPECT_EQ(body.bytes, 134217728u);  // positive, as nsys stores frees
  EXPECT_EQ(body.memKind, 5);         // Device Static
  EXPECT_EQ(body.nameLength, 37u);
  EXPECT_EQ(body.poolType, 1u);
  EXPECT_EQ(body.poolAddress, 0x7000u);
  EXPECT_EQ(body.poolSizeOrProcessId, uint64_t{1} << 25);
}

TEST(MemoryActivity, NeitherAllocationNorFreeIsRefused) {
  CUpti_ActivityMemory4 record = cudaMalloc();
  record.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_INVALID;
  transport::MemoryUsageBody body{};
  EXPECT_FALSE(cuda::memoryUsageBody(record, body));
}

}  // namespace
}  // namespace gpuscope
