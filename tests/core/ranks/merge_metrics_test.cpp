// A merge keeps each rank's GPU metrics and memory usage: its samples on its own GPU (typeId with the rank's hw
// field), moved onto the job's clock, and its allocations under its own process.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/gpu_metrics.h"
#include "core/metrics/memory_usage.h"
#include "core/ranks/trace_merge.h"
#include "core/schema/table_names.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/metric_trace.h"
#include "tests/core/testing/rank_recordings.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

// Adds to the rank file at PATH ten SMs Active samples of VALUE on device 0 and one allocation of BYTES.
void addMetricsAndMemory(const std::string& path, int64_t value, int64_t bytes) {
  auto writer = TraceWriter::addTo(path);
  testing::writeMetricSamples(*writer, {{gpu_metric::kSmsActive, [value](TimeNs) { return value; }}}, 1000, 10'000,
                              1000);
  int rows = writer->tableRows(table::kGpuMemoryUsage, {"start", "globalPid", "deviceId", "contextId", "address", "pc",
                                                        "bytes", "memKind", "memoryOperationType"});
  writer->addRow(rows, {int64_t{500}, global_id::make(0, 0, testing::kRankRecordingPid, 0), int64_t{0}, int64_t{1},
                        int64_t{0x7000}, int64_t{0}, bytes, int64_t{2}, int64_t{0}});
  writer->finish();
}

TEST(MergeMetrics, EachRankKeepsItsOwnGpuMetricsAndMemory) {
  std::string rank0 = testing::writeRankRecording("metrics_r0.sqlite", {0, 1'790'000'000'000'000'000});
  std::string rank1 = testing::writeRankRecording("metrics_r1.sqlite", {1, 1'790'000'000'010'000'000});
  std::string merged = testing::processTempPath("merge_metrics", "job.sqlite");
  addMetricsAndMemory(rank0, 20, 1000);
  addMetricsAndMemory(rank1, 70, 3000);
  MergeSummary summary = mergeTraces({rank0, rank1}, merged);
  for (const std::string& line : summary.notKept) ADD_FAILURE() << "not kept: " << line;
  Database db = Database::openReadOnly(merged);
  GpuMetrics metrics = readGpuMetrics(db);
  ASSERT_EQ(metrics.devices.size(), 2u) << "one GPU per rank, told apart by the hw field of typeId";
  EXPECT_EQ(metrics.refusedRows, 0u);
  for (const GpuMetricDevice& device : metrics.devices) {
    EXPECT_EQ(device.deviceId, 0);
    const MetricSeries* sms = device.find(gpu_metric::kSmsActive);
    ASSERT_NE(sms, nullptr);
    EXPECT_EQ(sms->size(), 10u);
    bool second = global_id::hw(device.typeId) == summary.inputs.at(1).rank.hwFirst;
    EXPECT_EQ(sms->values()[0], second ? 70 : 20);
    // Rank 1 started 10 ms later: its samples moved by that much.
    EXPECT_EQ(sms->times()[0], second ? 1000 + 10'000'000 : 1000);
  }
  MemoryUsage usage = readMemoryUsage(db);
  ASSERT_EQ(usage.processes.size(), 2u);
  EXPECT_EQ(usage.devicePeak(0, summary.inputs.at(0).rank.hwFirst).bytes, 1000);
  EXPECT_EQ(usage.devicePeak(0, summary.inputs.at(1).rank.hwFirst).bytes, 3000);
  for (const std::string& path : {rank0, rank1, merged}) std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
