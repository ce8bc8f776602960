// libFuzzer target: every stats report and the roofline run on a file of any bytes, as `gpuscope stats`
// and `gpuscope roofline` open it, and each table is written as CSV, text and JSON. Only TraceError
// (ReportUnavailable among them) may come out.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/model/trace_file.h"
#include "core/report/report_format.h"
#include "core/roofline/roofline_report.h"
#include "core/stats/stats_reports.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = gpuscope::fuzz::inputPath(".sqlite");
  try {
    auto db = gpuscope::openCheckedTraceFile(gpuscope::fuzz::writeInput(path, data, size));
    for (auto name : gpuscope::statsReportNames()) {
      try {
        auto table = gpuscope::runStatsReport(db, name);
        gpuscope::formatCsv(table);
        gpuscope::formatTextTable(table);
        gpuscope::jsonText(gpuscope::reportJson(table));
      } catch (const gpuscope::TraceError&) {
      }
    }
    try {
      for (auto grouping : {gpuscope::RooflineGrouping::Instance, gpuscope::RooflineGrouping::Name}) {
        auto roofline = gpuscope::loadRoofline(db, grouping);
        gpuscope::jsonText(gpuscope::reportJson(gpuscope::rooflinePointsTable(roofline, grouping)));
      }
    } catch (const gpuscope::TraceError&) {
    }
  } catch (const gpuscope::TraceError&) {
  }
  return 0;
}
