// cuda_kern_exec_sum for a kernel none of whose launches queued (it started before its call returned):
// nsys's stdev() is 0 below two samples, so QStdDev reads 0.0 while QAvg..QMax stay empty.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/report/report_format.h"
#include "core/stats/stats_reports.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace {

TEST(CudaKernExecSum, NoQueuedLaunchGivesZeroQStdDev) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("kern_exec_queue_" + std::to_string(::getpid()) + ".sqlite")).string();
  const int64_t globalPid = global_id::make(0, 1, 7, 0);
  const int64_t globalTid = global_id::make(0, 1, 7, 7);
  {
    TraceWriter w(path);
    w.addProcess({globalPid, 7, "tiny"});
    w.addCudaApi({100, 200, CudaApiKind::Runtime, globalTid, 1, "cudaLaunchKernel_v7000", 0, std::nullopt});
    KernelRow kernel;
    kernel.start = 150;  // before the call returns at 200: no queue time
    kernel.end = 400;
    kernel.streamId = 7;
    kernel.correlationId = 1;
    kernel.globalPid = globalPid;
    kernel.demangledName = "tiny(int)";
    kernel.shortName = "tiny";
    w.addKernel(kernel);
    w.finish();
  }
  auto table = runStatsReport(Database::openReadOnly(path), "cuda_kern_exec_sum");
  std::filesystem::remove(path);
  std::string csv = formatCsv(table);
  // Columns: PID,TID,DevId,Count,QCount, T x5, A x5, Q x5 (avg, med, min, max, stddev), K x5, names.
  EXPECT_NE(csv.find(",1,0,"), std::string::npos) << csv;      // Count 1, QCount 0
  EXPECT_NE(csv.find(",,,,,0.0,"), std::string::npos) << csv;  // QAvg..QMax empty, QStdDev 0.0
}

}  // namespace
}  // namespace gpuscope
