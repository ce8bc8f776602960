// cuda_gpu_kern_sum, cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum: GPU time by kernel, GPU time and
// bytes by memory operation.
#include <algorithm>

#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_sources.h"

namespace gpuscope {
namespace {

// Samples (VALUE_SQL of each row) grouped by "[CUDA memcpy <kind>]" and "[CUDA memset]".
SampleGroups memoryOperationSamples(const Database& db, const std::string& valueSql) {
  bool memcpy = db.hasTable(table::kMemcpy);
  bool memset = db.hasTable(table::kMemset);
  if (!memcpy && !memset) requireReportTable(db, table::kMemcpy);
  SampleGroups groups;
  if (memcpy) {
    auto kinds = enumLabels(db, table::kEnumMemcpyOper, builtinMemcpyKindLabels());
    auto stmt = db.prepare("SELECT copyKind, " + valueSql + " FROM CUPTI_ACTIVITY_KIND_MEMCPY");
    while (stmt.step()) {
      auto kind = kinds.find(stmt.int64(0));
      groups[{nsys_enum::memcpyOperationName(kind == kinds.end() ? std::string_view() : kind->second)}].push_back(
          stmt.int64(1));
    }
  }
  if (memset) {
    auto stmt = db.prepare("SELECT " + valueSql + " FROM CUPTI_ACTIVITY_KIND_MEMSET");
    const std::vector<std::string> key = {std::string(nsys_enum::kMemsetOperationName)};
    auto& samples = groups[key];
    while (stmt.step()) samples.push_back(stmt.int64(0));
    if (samples.empty()) groups.erase(key);
  }
  return groups;
}

double megabytes(double bytes) { return bytes / 1e6; }

}  // namespace

SummaryLayout cudaGpuKernSumLayout() { return {"cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", "Instances", {"Name"}}; }

SampleGroups cudaGpuKernSamples(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kKernel);
  return groupSamples(db,
                      "SELECT s.value, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                      "LEFT JOIN StringIds AS s ON s.id = k.demangledName");
}

ReportTable cudaGpuKernSum(const Database& db) {
  return timeSummaryTable(cudaGpuKernSumLayout(), cudaGpuKernSamples(db));
}

ReportTable cudaGpuMemTimeSum(const Database& db) {
  return timeSummaryTable({"cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)", "Count", {"Operation"}},
                          memoryOperationSamples(db, "end - start"));
}

ReportTable cudaGpuMemSizeSum(const Database& db) {
  auto groups = memoryOperationSamples(db, "bytes");
  ReportTable table{"cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)", {}, {}};
  table.columns = {{"Total (MB)", 3}, {"Count", 0}};
  for (const char* statistic : {"Avg", "Med", "Min", "Max", "StdDev"})
    table.columns.push_back({std::string(statistic) + " (MB)", 3});
  table.columns.push_back({"Operation", 0});

  std::vector<std::pair<std::string, SampleSummary>> summaries;
  for (const auto& [labels, samples] : groups) summaries.emplace_back(labels.front(), summarize(samples));
  std::stable_sort(summaries.begin(), summaries.end(),
                   [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  for (const auto& [operation, s] : summaries) {
    // Sizes are shown in MB (10^6 bytes) without the 0.1 rounding the time columns get.
    table.rows.push_back({megabytes(static_cast<double>(s.total)), s.count, megabytes(s.mean), megabytes(s.median),
                          megabytes(static_cast<double>(s.min)), megabytes(static_cast<double>(s.max)),
                          megabytes(s.stddev), operation});
  }
  return table;
}

}  // namespace gpuscope
