#pragma once
// A RunDiff as report tables, for the CLI's table, CSV and JSON output.
#include "core/diff/run_diff.h"
#include "core/report/report_table.h"

namespace gpuscope {

// One row per name: Name, Status, counts, totals and averages in A and B, and the deltas (B - A).
ReportTable diffReportTable(const RunDiff& diff);
// One row per summary figure: Metric, Unit, A, B, Delta, Delta (%).
ReportTable summaryReportTable(const RunDiff& diff);

}  // namespace gpuscope
