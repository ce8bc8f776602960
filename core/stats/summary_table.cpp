#include "core/stats/summary_table.h"

#include <algorithm>

namespace gpuscope {

ReportTable timeSummaryTable(const SummaryLayout& layout, const SampleGroups& groups) {
  ReportTable table{layout.name, layout.title, {}, {}};
  table.columns = {{"Time (%)", 1}, {"Total Time (ns)", 0}, {layout.countTitle, 0}};
  appendStatisticColumns(table.columns, "", "ns");
  for (const auto& label : layout.labelTitles) table.columns.push_back({label, 0});

  std::vector<std::pair<const std::vector<std::string>*, SampleSummary>> summaries;
  int64_t grandTotal = 0;
  for (const auto& [labels, samples] : groups) {
    summaries.emplace_back(&labels, summarize(samples));
    grandTotal = saturatingAdd(grandTotal, summaries.back().second.total);
  }
  std::stable_sort(summaries.begin(), summaries.end(),
                   [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  for (const auto& [labels, summary] : summaries) {
    auto& row = table.rows.emplace_back();
    row = {percentOf(summary.total, grandTotal), summary.total, summary.count};
    appendStatisticCells(row, summary);
    for (const auto& label : *labels) row.emplace_back(label);
  }
  return table;
}

}  // namespace gpuscope
