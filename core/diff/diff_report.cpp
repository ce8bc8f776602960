#include "core/diff/diff_report.h"

#include <cmath>

namespace gpuscope {
namespace {

ReportCell percentCell(std::optional<double> percent) {
  return optionalCell(percent.has_value(), percent.value_or(0.0));
}

// A summary value: an integer for ns, bytes and counts, a real for shares.
ReportCell metricCell(double value, int decimals) {
  if (decimals > 0) return value;
  return static_cast<int64_t>(std::llround(value));
}

}  // namespace

ReportTable diffReportTable(const RunDiff& diff) {
  ReportTable table;
  bool kernels = diff.by != DiffBy::Nvtx;
  table.name = kernels ? "diff_kernels" : "diff_nvtx";
  table.title = kernels ? "Kernels, B vs A" : "NVTX ranges, B vs A";
  table.columns = {{kernels ? "Kernel" : "Range", 0},
                   {"Status", 0},
                   {"Count A", 0},
                   {"Count B", 0},
                   {"Total A (ns)", 0},
                   {"Total B (ns)", 0},
                   {"Delta Total (ns)", 0},
                   {"Delta Total (%)", 1},
                   {"Avg A (ns)", 1},
                   {"Avg B (ns)", 1},
                   {"Delta Avg (ns)", 1}};
  for (const auto& row : diff.rows) {
    bool inA = row.presence != DiffPresence::OnlyB;
    bool inB = row.presence != DiffPresence::OnlyA;
    table.rows.push_back({row.name, std::string(presenceLabel(row.presence)), row.a.count, row.b.count, row.a.total,
                          row.b.total, row.deltaTotal(), percentCell(row.deltaTotalPercent()),
                          optionalCell(inA, row.a.average()), optionalCell(inB, row.b.average()),
                          optionalCell(inA && inB, row.deltaAverage())});
  }
  return table;
}

ReportTable summaryReportTable(const RunDiff& diff) {
  ReportTable table;
  table.name = "diff_summary";
  table.title = "Run summary, B vs A";
  table.columns = {{"Metric", 0}, {"Unit", 0}, {"A", 1}, {"B", 1}, {"Delta", 1}, {"Delta (%)", 1}};
  for (const auto& metric : diff.summary) {
    table.rows.push_back({metric.name, metric.unit, metricCell(metric.a, metric.decimals),
                          metricCell(metric.b, metric.decimals), metricCell(metric.delta(), metric.decimals),
                          percentCell(metric.deltaPercent())});
  }
  return table;
}

}  // namespace gpuscope
