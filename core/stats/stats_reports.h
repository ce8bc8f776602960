#pragma once
// The `nsys stats` reports gpuscope reproduces, by name: each reads a trace and returns a ReportTable whose
// CSV matches what `nsys stats --report NAME --format csv` prints for the same file.
#include <string>
#include <string_view>
#include <vector>

#include "core/report/report_table.h"

namespace gpuscope {

class Database;

// Every report runStatsReport knows, in alphabetical order, with a line saying what it shows.
struct StatsReportInfo {
  std::string_view name;
  std::string_view description;
};
const std::vector<StatsReportInfo>& statsReports();
std::vector<std::string_view> statsReportNames();
// The set `nsys stats` runs when no report is named.
std::vector<std::string_view> defaultStatsReportNames();

// Throws TraceError naming the valid reports when NAME is not one of them.
void requireStatsReportName(std::string_view name);

// Runs one report. Throws TraceError naming the valid reports for an unknown NAME, and ReportUnavailable
// (a TraceError) when the file lacks a table the report reads.
ReportTable runStatsReport(const Database& db, std::string_view name);

ReportTable cudaApiSum(const Database& db);
ReportTable cudaApiTrace(const Database& db);
ReportTable cudaGpuKernSum(const Database& db);
ReportTable cudaGpuMemTimeSum(const Database& db);
ReportTable cudaGpuMemSizeSum(const Database& db);
ReportTable cudaGpuTrace(const Database& db);
ReportTable cudaKernExecSum(const Database& db);
ReportTable cudaKernExecTrace(const Database& db);
ReportTable nvtxSum(const Database& db);
ReportTable nvtxGpuProjSum(const Database& db);
ReportTable nvtxKernSum(const Database& db);
ReportTable osrtSum(const Database& db);

}  // namespace gpuscope
