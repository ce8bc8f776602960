#pragma once
// What the stats reports share: table checks, optional columns, enum labels, API names, statistic columns.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/report/report_table.h"
#include "core/stats/summary_stats.h"

namespace gpuscope {

// A report cannot run on this file because a table it reads is missing; the message says which.
class ReportUnavailable : public TraceError {
 public:
  using TraceError::TraceError;
};

// Throws ReportUnavailable with requireTable's sentence when TABLE is missing.
void requireReportTable(const Database& db, std::string_view table);

// COLUMN when TABLE has it, else FALLBACK (an SQL expression such as "NULL"): for version-dependent columns.
std::string columnOr(const Database& db, std::string_view table, std::string_view column,
                     std::string_view fallback = "NULL");

// Labels of an ENUM_* table (id -> label), falling back to FALLBACK for ids the file does not list.
std::unordered_map<int64_t, std::string> enumLabels(const Database& db, std::string_view table,
                                                    const std::unordered_map<int64_t, std::string>& fallback);
const std::unordered_map<int64_t, std::string>& builtinMemcpyKindLabels();
const std::unordered_map<int64_t, std::string>& builtinMemoryKindLabels();

// CUDA API names as nsys prints them: a trailing six-character version tag "_vNNNN" is dropped
// ("cudaMalloc_v3020" -> "cudaMalloc") while longer tags stay ("cudaLaunchKernelExC_v11060").
std::string displayApiName(std::string_view name);

// "<prefix>Avg (<unit>)", Med, Min, Max, StdDev: the statistic columns of a summary.
void appendStatisticColumns(std::vector<ReportColumn>& columns, const std::string& prefix, const std::string& unit);
// Their cells: averages, medians and deviations rounded to 0.1 as nsys's queries do; empty without samples.
void appendStatisticCells(std::vector<ReportCell>& row, const SampleSummary& summary);

// Samples grouped by label columns: rows of (label..., sample) from SQL whose last column is the sample.
using SampleGroups = std::map<std::vector<std::string>, std::vector<int64_t>>;
SampleGroups groupSamples(const Database& db, const std::string& sql);

}  // namespace gpuscope
