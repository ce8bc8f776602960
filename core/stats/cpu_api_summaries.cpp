// cuda_api_sum and osrt_sum: time spent in CUDA API and OS runtime calls, by function.
#include "core/schema/trace_schema.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_sources.h"

namespace gpuscope {

SummaryLayout cudaApiSumLayout() { return {"cuda_api_sum", "CUDA API Summary", "Num Calls", {"Name"}}; }

SampleGroups cudaApiSamples(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kRuntime);
  // Runtime and driver calls alike (nsys sums both); equal names after dropping version tags merge.
  auto raw = groupSamples(db,
                          "SELECT s.value, r.end - r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                          "LEFT JOIN StringIds AS s ON s.id = r.nameId");
  SampleGroups groups;
  for (const auto& [labels, samples] : raw) {
    auto& merged = groups[{displayApiName(labels.front())}];
    merged.insert(merged.end(), samples.begin(), samples.end());
  }
  return groups;
}

ReportTable cudaApiSum(const Database& db) { return timeSummaryTable(cudaApiSumLayout(), cudaApiSamples(db)); }

SummaryLayout osrtSumLayout() { return {"osrt_sum", "OS Runtime Summary", "Num Calls", {"Name"}}; }

SampleGroups osrtSamples(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kOsrt);
  return groupSamples(db,
                      "SELECT s.value, o.end - o.start FROM OSRT_API AS o "
                      "LEFT JOIN StringIds AS s ON s.id = o.nameId WHERE o.eventClass = " +
                          std::to_string(nsys_enum::kEventClassOsRuntime));
}

ReportTable osrtSum(const Database& db) { return timeSummaryTable(osrtSumLayout(), osrtSamples(db)); }

}  // namespace gpuscope
