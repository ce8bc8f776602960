// Reports on a tiny hand-made trace whose answers are worked out by hand: two processes that reuse a
// correlation id, nested NVTX ranges, a domain, a start/end range, a kernel that starts before its call returns.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/report/report_format.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {
namespace {

const int64_t kThreadA = global_id::make(0, 0, 10, 10);
const int64_t kThreadB = global_id::make(0, 0, 20, 21);

// A database path unique to the running test, so tests may run in parallel.
std::string tempPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / (test + "_" + name)).string();
}

void createTables(Database& db, std::initializer_list<std::string_view> tables) {
  for (auto name : tables) db.exec(createTableSql(tableSpec(name)));
}

void insertApiCall(Database& db, int64_t start, int64_t end, int eventClass, int64_t tid, int64_t corr, int name) {
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, "
      "returnValue) VALUES (" +
      std::to_string(start) + "," + std::to_string(end) + "," + std::to_string(eventClass) + "," + std::to_string(tid) +
      "," + std::to_string(corr) + "," + std::to_string(name) + ",0)");
}

void insertKernel(Database& db, int64_t start, int64_t end, int64_t pid, int64_t corr, int name) {
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
      "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
      "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
      std::to_string(start) + "," + std::to_string(end) + ",0,1,7," + std::to_string(corr) + "," + std::to_string(pid) +
      "," + std::to_string(name) + "," + std::to_string(name) + ",32,64,2,1,128,1,1,4096,0,0,0,1)");
}

void insertNvtx(Database& db, int64_t start, std::string end, int type, int64_t tid, const std::string& text,
                int domain) {
  db.exec("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES (" +
          std::to_string(start) + "," + end + "," + std::to_string(type) + ",'" + text + "'," + std::to_string(tid) +
          "," + std::to_string(domain) + ")");
}

// Thread A (pid 10): cudaLaunchKernel [100,110] corr 1 -> kernA [105,160]; cudaLaunchKernel [200,230] corr 2 ->
// kernA [240,300]; cudaMemcpy [300,305] corr 3 -> 1000 bytes host-to-device [310,330].
// Thread B (pid 20): cuLaunchKernel (driver) [150,170] corr 1 -> kernB [180,190].
// NVTX on A: push/pop "outer" [90,320] holding "inner" [195,240]; on B: start/end "io" [140,175] in "myDomain".
Database handmadeTrace() {
  auto db = Database::create(tempPath("handmade_stats.sqlite"));
  db.exec("BEGIN");
  createTables(db, {table::kStringIds, table::kRuntime, table::kKernel, table::kMemcpy, table::kNvtx});
  db.exec(
      "INSERT INTO StringIds VALUES (1,'cudaLaunchKernel_v7000'),(2,'kernA'),(3,'kernB'),"
      "(6,'cuLaunchKernel'),(7,'cudaMemcpy_v3020')");
  insertApiCall(db, 100, 110, 0, kThreadA, 1, 1);
  insertApiCall(db, 200, 230, 0, kThreadA, 2, 1);
  insertApiCall(db, 300, 305, 0, kThreadA, 3, 7);
  insertApiCall(db, 150, 170, 1, kThreadB, 1, 6);
  insertKernel(db, 105, 160, global_id::processOf(kThreadA), 1, 2);
  insertKernel(db, 240, 300, global_id::processOf(kThreadA), 2, 2);
  insertKernel(db, 180, 190, global_id::processOf(kThreadB), 1, 3);
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, "
      "globalPid, bytes, copyKind) VALUES (310, 330, 0, 1, 7, 3, " +
      std::to_string(global_id::processOf(kThreadA)) + ", 1000, 1)");
  insertNvtx(db, 90, "320", nsys_enum::kNvtxPushPopRange, kThreadA, "outer", 0);
  insertNvtx(db, 195, "240", nsys_enum::kNvtxPushPopRange, kThreadA, "inner", 0);
  insertNvtx(db, 1, "NULL", nsys_enum::kNvtxDomainCreate, kThreadB, "myDomain", 1);
  insertNvtx(db, 140, "175", nsys_enum::kNvtxStartEndRange, kThreadB, "io", 1);
  db.exec("COMMIT");
  return db;
}

TEST(HandmadeTrace, CudaApiSumMergesVersionTagsAndCountsDriverCalls) {
  auto db = handmadeTrace();
  EXPECT_EQ(formatCsv(cudaApiSum(db)),
            "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
            "61.5,40,2,20.0,20.0,10,30,14.1,cudaLaunchKernel\n"
            "30.8,20,1,20.0,20.0,20,20,0.0,cuLaunchKernel\n"
            "7.7,5,1,5.0,5.0,5,5,0.0,cudaMemcpy\n");
}

TEST(HandmadeTrace, KernExecTraceJoinsCallsWithinTheirProcess) {
  auto db = handmadeTrace();
  // kernB shares correlation id 1 with kernA's call but belongs to process 20's cuLaunchKernel. kernA #1
  // starts before its call returns, so it has no queue time.
  EXPECT_EQ(formatCsv(cudaKernExecTrace(db)),
            "API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),Kernel Dur (ns),"
            "Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,Kernel Name\n"
            "100,10,,,105,55,60,10,10,0,cudaLaunchKernel,  64    2    1, 128    1    1,kernA\n"
            "150,20,170,10,180,10,40,20,21,0,cuLaunchKernel,  64    2    1, 128    1    1,kernB\n"
            "200,30,230,10,240,60,100,10,10,0,cudaLaunchKernel,  64    2    1, 128    1    1,kernA\n");
}

TEST(HandmadeTrace, NvtxGpuProjSumSpansFirstToLastOperationOfEachRange) {
  auto db = handmadeTrace();
  // outer holds both kernA and the memcpy: [105, 330]; inner only kernA #2: [240, 300]; io kernB: [180, 190].
  EXPECT_EQ(formatCsv(nvtxGpuProjSum(db)),
            "Range,Style,Total Proj Time (ns),Total Range Time (ns),Range Instances,Proj Avg (ns),Proj Med (ns),"
            "Proj Min (ns),Proj Max (ns),Proj StdDev (ns),Total GPU Ops,Avg GPU Ops,Avg Range Lvl,Avg Num Child\n"
            ":outer,PushPop,225,230,1,225.0,225.0,225,225,0.0,3,3.0,0.0,1.0\n"
            ":inner,PushPop,60,45,1,60.0,60.0,60,60,0.0,1,1.0,1.0,0.0\n"
            "myDomain:io,StartEnd,10,35,1,10.0,10.0,10,10,0.0,1,1.0,0.0,0.0\n");
}

TEST(HandmadeTrace, NvtxKernSumCountsAKernelForEveryEnclosingRange) {
  auto db = handmadeTrace();
  EXPECT_EQ(formatCsv(nvtxKernSum(db)),
            "NVTX Range,Style,PID,TID,NVTX Inst,Kern Inst,Total Time (ns),Avg (ns),Med (ns),Min (ns),Max (ns),"
            "StdDev (ns),Kernel Name\n"
            ":inner,PushPop,10,10,1,1,60,60.0,60.0,60,60,0.0,kernA\n"
            ":outer,PushPop,10,10,1,2,115,57.5,57.5,55,60,3.5,kernA\n"
            "myDomain:io,StartEnd,20,21,1,1,10,10.0,10.0,10,10,0.0,kernB\n");
}

TEST(HandmadeTrace, NvtxSumNamesRangesByDomain) {
  auto db = handmadeTrace();
  EXPECT_EQ(formatCsv(nvtxSum(db)),
            "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range\n"
            "74.2,230,1,230.0,230.0,230,230,0.0,PushPop,:outer\n"
            "14.5,45,1,45.0,45.0,45,45,0.0,PushPop,:inner\n"
            "11.3,35,1,35.0,35.0,35,35,0.0,StartEnd,myDomain:io\n");
}

TEST(HandmadeTrace, MemoryReportsWithoutMemsetTable) {
  auto db = handmadeTrace();
  EXPECT_EQ(formatCsv(cudaGpuMemSizeSum(db)),
            "Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation\n"
            "0.001,1,0.001,0.001,0.001,0.001,0.000,[CUDA memcpy Host-to-Device]\n");
  EXPECT_EQ(formatCsv(cudaGpuMemTimeSum(db)),
            "Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation\n"
            "100.0,20,1,20.0,20.0,20,20,0.0,[CUDA memcpy Host-to-Device]\n");
}

TEST(HandmadeTrace, GpuTraceWithoutDeviceTableOrMemoryKinds) {
  auto db = handmadeTrace();
  auto table = cudaGpuTrace(db);
  ASSERT_EQ(table.rows.size(), 4u);
  auto csv = formatCsv(table);
  // The memcpy: 1000 bytes in 20 ns is 1000 * (10^9 / 20) B/s = 50000 MB/s; no srcKind/dstKind in the file.
  EXPECT_NE(csv.find("310,20,3,,,,,,,,,,0.001,50000.000,,,Device (0),1,,7,[CUDA memcpy Host-to-Device]\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("105,55,1,64,2,1,128,1,1,32,0.004,0.000,,,,,Device (0),1,,7,kernA\n"), std::string::npos) << csv;
}

TEST(HandmadeTrace, OsrtSumNeedsItsTable) {
  auto db = handmadeTrace();
  try {
    osrtSum(db);
    FAIL() << "osrt_sum ran without an OSRT_API table";
  } catch (const ReportUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("OSRT_API"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpuscope
