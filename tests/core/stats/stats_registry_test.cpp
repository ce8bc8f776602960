// The report registry: names, the default set, unknown names, missing tables, empty tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/report/report_format.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {
namespace {

Database emptyTrace(const std::string& name, std::initializer_list<std::string_view> tables) {
  auto db = Database::create((std::filesystem::path(::testing::TempDir()) / name).string());
  for (auto table : tables) db.exec(createTableSql(tableSpec(table)));
  return db;
}

TEST(StatsRegistry, KnowsEveryReportAndTheNsysDefaultSet) {
  auto names = statsReportNames();
  EXPECT_EQ(names.size(), 12u);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (auto name : defaultStatsReportNames())
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_EQ(defaultStatsReportNames().size(), 6u);
}

TEST(StatsRegistry, UnknownNameListsTheValidOnes) {
  auto db = emptyTrace("registry_unknown.sqlite", {table::kStringIds});
  try {
    runStatsReport(db, "cuda_gpu_sum_typo");
    FAIL() << "no error for an unknown report";
  } catch (const TraceError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("cuda_gpu_sum_typo"), std::string::npos) << message;
    EXPECT_NE(message.find("nvtx_gpu_proj_sum"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(StatsRegistry, MissingKernelTableSaysWhatToCheck) {
  auto db = emptyTrace("registry_missing.sqlite", {table::kStringIds, table::kRuntime});
  for (auto name : {"cuda_gpu_kern_sum", "cuda_kern_exec_sum", "cuda_kern_exec_trace", "cuda_gpu_trace"}) {
    try {
      runStatsReport(db, name);
      ADD_FAILURE() << name << " ran without a kernel table";
    } catch (const ReportUnavailable& e) {
      EXPECT_NE(std::string(e.what()).find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos) << e.what();
    }
  }
}

TEST(StatsRegistry, EmptyTablesGiveHeaderOnlyReports) {
  auto db = emptyTrace("registry_empty.sqlite", {table::kStringIds, table::kRuntime, table::kKernel, table::kMemcpy,
                                                 table::kMemset, table::kNvtx, table::kOsrt});
  for (auto name : statsReportNames()) {
    auto report = runStatsReport(db, name);
    EXPECT_EQ(report.name, name);
    EXPECT_TRUE(report.rows.empty()) << name;
    EXPECT_FALSE(report.columns.empty()) << name;
  }
}

TEST(StatsRegistry, ExtremeTimesAndNullsNeitherOverflowNorThrow) {
  // A hostile file: spans of the whole int64 range, NULL ids, a kernel whose call is missing.
  auto db = emptyTrace("registry_extreme.sqlite", {table::kStringIds, table::kRuntime, table::kKernel, table::kMemcpy,
                                                   table::kNvtx, table::kOsrt});
  const std::string lo = "-9223372036854775807", hi = "9223372036854775807";
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, "
      "returnValue) VALUES (" +
      lo + "," + hi + ",0,1,1,1,0), (" + lo + "," + hi +
      ",0,1,1,1,0), "
      "(0,0,0,NULL,NULL,99,0)");
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
      "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
      "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
      hi + "," + lo + ",0,0,0,1,0,5,5,0,0,0,0,0,0,0,0,0,0,0,0), (" + lo + "," + hi +
      ",0,0,0,7,0,5,5,0,0,0,0,0,0,0,0,0,0,0,0)");
  db.exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, "
      "globalPid, bytes, copyKind) VALUES (0, 0, 0, 0, 0, 1, 0, " +
      hi + ", 99)");
  db.exec("INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, domainId) VALUES (" + lo + "," + hi +
          ",59,1,NULL), (" + lo + "," + hi + ",59,1,NULL)");
  db.exec("INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue) VALUES (" + lo + "," + hi +
          ",27,1,1,0), (" + lo + "," + hi + ",27,1,1,0)");
  for (auto name : statsReportNames()) {
    EXPECT_NO_THROW({
      auto csv = formatCsv(runStatsReport(db, name));
      EXPECT_GT(csv.size(), 0u);
    }) << name;
  }
}

}  // namespace
}  // namespace gpuscope
