#pragma once
// GPUSCOPE_KERNEL_METRICS: where a trace file keeps its KernelMetrics rows, whoever produced them.
#include <string>
#include <string_view>
#include <vector>

#include "core/roofline/kernel_metrics.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

class Database;
class TraceWriter;

// The table these rows live in; its columns are declared in core/schema (kernelMetricsTableSpec).
inline constexpr std::string_view kKernelMetricsTable = table::kKernelMetrics;

// Every row of the file's GPUSCOPE_KERNEL_METRICS (empty when the table is absent). Throws TraceError when
// the table lacks a column the reader needs.
std::vector<KernelMetrics> readKernelMetrics(const Database& db);

// Writes ROWS into the trace file at PATH (opened read-write; it must already be a trace), creating
// GPUSCOPE_KERNEL_METRICS when absent and replacing rows with the same (globalPid, correlationId).
void writeKernelMetrics(const std::string& path, const std::vector<KernelMetrics>& rows);
// Adds ROWS through WRITER, to the file it is writing (the recorder's: no row there yet).
void addKernelMetrics(TraceWriter& writer, const std::vector<KernelMetrics>& rows);

}  // namespace gpuscope
