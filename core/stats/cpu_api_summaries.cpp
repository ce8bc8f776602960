// cuda_api_sum and osrt_sum: time spent in CUDA API and OS runtime calls, by function.
#include "core/schema/trace_schema.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_table.h"

namespace gpuscope {

ReportTable cudaApiSum(const Database& db) {
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
  return timeSummaryTable({"cuda_api_sum", "CUDA API Summary", "Num Calls", {"Name"}}, groups);
}

ReportTable osrtSum(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kOsrt);
  auto groups = groupSamples(db,
                             "SELECT s.value, o.end - o.start FROM OSRT_API AS o "
                             "LEFT JOIN StringIds AS s ON s.id = o.nameId WHERE o.eventClass = " +
                                 std::to_string(nsys_enum::kEventClassOsRuntime));
  return timeSummaryTable({"osrt_sum", "OS Runtime Summary", "Num Calls", {"Name"}}, groups);
}

}  // namespace gpuscope
