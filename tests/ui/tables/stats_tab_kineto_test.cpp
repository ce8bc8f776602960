// The Stats tab on a PyTorch profiler trace (.json.gz) shows what `gpuscope stats` prints for it: every
// report, over the whole trace and over a ruler range, row for row, or the same sentence where a report
// cannot run.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <memory>
#include <string>

#include "core/open/open_trace.h"
#include "core/report/report_format.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"
#include "core/stats/stats_window.h"
#include "ui/session/trace_session.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/stats_reports_view.h"

namespace gpuscope::ui {
namespace {

const std::string kKineto = GPUSCOPE_FIXTURES "/kineto/loader2_kineto.json.gz";

std::shared_ptr<const Trace> kinetoTrace() {
  static const std::shared_ptr<const Trace> trace(openTrace(kKineto).load().release());
  return trace;
}

// What `gpuscope stats --report NAME --format csv` prints for the fixture, through the calls the command
// makes (restricted to RANGE when it is not empty, as the viewer's ruler restricts the tab), or the sentence
// it fails with.
std::string cliReport(const std::string& name, TimeInterval range) {
  try {
    Database db = openTrace(kKineto).connectChecked();
    restrictEventTables(db, range);
    return formatCsv(runStatsReport(db, name));
  } catch (const ReportUnavailable& unavailable) {
    return unavailable.what();
  }
}

// What the tab shows for NAME: its rows as the CSV export writes them, or the sentence in its status.
std::string tabReport(StatsReportsView& view, const std::string& name) {
  QSignalSpy ready(view.pane(), &ReportPane::reportReady);
  EXPECT_TRUE(view.showReport(QString::fromStdString(name)));
  if (view.pane()->isRunning() && !ready.wait(60000)) return "the report did not finish";
  if (view.pane()->model()->report().name != name) return view.pane()->status().toStdString();
  return formatCsv(view.pane()->model()->report());
}

// Runs every report in the tab and compares it with the command line's; returns the number of reports with rows.
int compareEveryReport(StatsReportsView& view, TimeInterval range) {
  int withRows = 0;
  for (auto name : statsReportNames()) {
    std::string expected = cliReport(std::string(name), range);
    EXPECT_EQ(tabReport(view, std::string(name)), expected)
        << name << " over [" << range.start << ", " << range.end << ")";
    if (view.pane()->model()->rowCount() > 0) ++withRows;
  }
  return withRows;
}

TEST(StatsTabOnKineto, ShowsWhatGpuscopeStatsPrints) {
  TraceSession session;
  StatsReportsView view(&session);
  view.show();
  session.setTrace(kinetoTrace());
  EXPECT_GE(compareEveryReport(view, {}), 5) << "kernels, copies, sets, CUDA API and NVTX all have rows";
}

TEST(StatsTabOnKineto, ARulerRangeRestrictsItAsItRestrictsGpuscopeStats) {
  TraceSession session;
  StatsReportsView view(&session);
  view.show();
  session.setTrace(kinetoTrace());
  const TimeNs length = kinetoTrace()->endTime() - kinetoTrace()->startTime();
  const TimeInterval range{kinetoTrace()->startTime() + length / 3, kinetoTrace()->startTime() + 2 * length / 3};
  session.setRange(range.start, range.end);
  EXPECT_GE(compareEveryReport(view, range), 1);
  EXPECT_NE(cliReport("cuda_gpu_kern_sum", range), cliReport("cuda_gpu_kern_sum", {}))
      << "the range leaves some kernels out";
}

}  // namespace
}  // namespace gpuscope::ui
