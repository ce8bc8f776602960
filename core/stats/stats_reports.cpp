#include "core/stats/stats_reports.h"

#include <array>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/error.h"

namespace gpuscope {
namespace {

struct ReportEntry {
  StatsReportInfo info;
  ReportTable (*run)(const Database&);
};

const std::array kReports = {
    ReportEntry{{"cuda_api_sum", "CUDA runtime and driver API calls by function: time, calls, statistics"}, cudaApiSum},
    ReportEntry{{"cuda_api_trace", "every CUDA API call with its result, correlation id and thread"}, cudaApiTrace},
    ReportEntry{{"cuda_gpu_kern_sum", "GPU kernels by name: time, instances, statistics"}, cudaGpuKernSum},
    ReportEntry{{"cuda_gpu_mem_size_sum", "GPU memcpy/memset operations by kind: bytes in MB"}, cudaGpuMemSizeSum},
    ReportEntry{{"cuda_gpu_mem_time_sum", "GPU memcpy/memset operations by kind: time"}, cudaGpuMemTimeSum},
    ReportEntry{{"cuda_gpu_trace", "every kernel, memcpy and memset on the GPU with its launch shape"}, cudaGpuTrace},
    ReportEntry{{"cuda_kern_exec_sum", "kernel launches by thread and kernel: API, queue, kernel and total time"},
                cudaKernExecSum},
    ReportEntry{{"cuda_kern_exec_trace", "every kernel launch: API, queue, kernel and total time"}, cudaKernExecTrace},
    ReportEntry{{"nvtx_gpu_proj_sum", "NVTX ranges projected onto the GPU work launched inside them"}, nvtxGpuProjSum},
    ReportEntry{{"nvtx_kern_sum", "kernels by the NVTX ranges they were launched in"}, nvtxKernSum},
    ReportEntry{{"nvtx_sum", "NVTX ranges by name: CPU time, instances, statistics"}, nvtxSum},
    ReportEntry{{"osrt_sum", "OS runtime calls (poll, ioctl, mutexes, ...) by function: time, calls"}, osrtSum},
};

const ReportEntry* findReport(std::string_view name) {
  for (const auto& entry : kReports) {
    if (entry.info.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace

const std::vector<StatsReportInfo>& statsReports() {
  static const std::vector<StatsReportInfo> infos = [] {
    std::vector<StatsReportInfo> all;
    for (const auto& entry : kReports) all.push_back(entry.info);
    return all;
  }();
  return infos;
}

std::vector<std::string_view> statsReportNames() {
  std::vector<std::string_view> names;
  for (const auto& entry : kReports) names.push_back(entry.info.name);
  return names;
}

std::vector<std::string_view> defaultStatsReportNames() {
  return {"cuda_api_sum",          "cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum",
          "cuda_gpu_mem_size_sum", "nvtx_sum",          "osrt_sum"};
}

void requireStatsReportName(std::string_view name) {
  if (findReport(name)) return;
  std::string valid;
  for (const auto& entry : kReports) valid += (valid.empty() ? "" : ", ") + std::string(entry.info.name);
  throw TraceError("There is no stats report named \"" + std::string(name) + "\"; the reports are " + valid + ".");
}

ReportTable runStatsReport(const Database& db, std::string_view name) {
  requireStatsReportName(name);
  return findReport(name)->run(db);
}

}  // namespace gpuscope
