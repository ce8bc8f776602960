// One time base everywhere: the kernel table, the details panel, the tooltips and the stats trace reports count
// from the trace start as the ruler does, and View > Times Count From switches all of them to session time (on
// loader2.sqlite, whose first event comes seconds into the session).
#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QLocale>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "core/details/detail_text.h"
#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "core/report/report_format.h"
#include "core/stats/stats_reports.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/details/details_panel.h"
#include "ui/main_window/main_window.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/stats_reports_view.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

using test::loader2Trace;

QString shownDuration(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

TEST(TimeBase, TablesDetailsAndTooltipsCountFromTheTraceStartLikeTheRuler) {
  const Trace& trace = *loader2Trace();
  ASSERT_GT(trace.startTime(), 1000000);  // the two bases differ
  TraceSession session;
  EXPECT_EQ(session.timeBase(), TimeBase::Trace);
  KernelTableView table(&session);
  DetailsPanel details(&session);
  session.setTrace(loader2Trace());
  EventRef first = table.instanceModel()->eventAt(0);
  QModelIndex start = table.instanceModel()->index(0, KernelTableModel::StartColumn);
  EXPECT_EQ(start.data().toString(), shownDuration(trace.start(first) - trace.startTime()));
  session.select(first);
  EXPECT_EQ(details.shownValue(QStringLiteral("Start"), QStringLiteral("Time")).toStdString(),
            detail_text::time(trace.start(first) - trace.startTime()));
  EXPECT_TRUE(rulerTooltip(trace, trace.start(first), session.timeBase())
                  .startsWith(shownDuration(trace.start(first) - trace.startTime())));

  session.setTimeBase(TimeBase::Session);
  EXPECT_EQ(start.data().toString(), shownDuration(trace.start(first)));
  EXPECT_EQ(details.shownValue(QStringLiteral("Start"), QStringLiteral("Time")).toStdString(),
            detail_text::time(trace.start(first)));
  EXPECT_TRUE(rulerTooltip(trace, trace.start(first), session.timeBase()).contains(QStringLiteral("session time")));
}

// Issue 30, point 8a: cuda_gpu_trace's Start showed nsys's session time beside tables in trace time.
TEST(TimeBase, StatsTraceReportsCountFromTheTraceStartAndExportNsysNumbers) {
  const Trace& trace = *loader2Trace();
  TraceSession session;
  StatsReportsView view(&session);
  view.show();
  session.setTrace(loader2Trace());
  ASSERT_TRUE(view.showReport(QStringLiteral("cuda_gpu_trace")));
  if (view.pane()->isRunning()) {
    QSignalSpy ready(view.pane(), &ReportPane::reportReady);
    ASSERT_TRUE(ready.wait(60000));
  }
  const ReportTableModel& model = *view.pane()->model();
  ASSERT_GT(model.rowCount(), 0);
  ASSERT_EQ(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Start (ns from trace start)"));
  ASSERT_TRUE(model.isMomentColumn(0));
  EXPECT_FALSE(model.isMomentColumn(1));  // Duration
  const qlonglong sessionStart = std::get<int64_t>(model.report().rows[0][0]);
  QLocale locale;
  locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
  EXPECT_EQ(model.index(0, 0).data().toString(), locale.toString(sessionStart - trace.startTime()));
  EXPECT_EQ(model.index(0, 0).data(ReportTableModel::SortRole).toLongLong(), sessionStart);

  // Export CSV and `gpuscope stats` print nsys's own numbers, whatever the viewer shows.
  QTemporaryDir dir;
  const QString csv = dir.filePath(QStringLiteral("trace.csv"));
  ASSERT_TRUE(view.pane()->exportCsv(csv).isEmpty());
  QFile file(csv);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(file.readAll().toStdString(), formatCsv(runStatsReport(trace.database(), "cuda_gpu_trace")));

  session.setTimeBase(TimeBase::Session);
  EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Start (ns, session time)"));
  EXPECT_EQ(model.index(0, 0).data().toString(), locale.toString(sessionStart));
}

TEST(TimeBase, TheViewMenuSwitchesTheBase) {
  QTemporaryDir dir;
  MainWindow window(std::make_unique<QSettings>(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
  auto* session = window.findChild<QAction*>(QStringLiteral("timeBaseSession"));
  auto* trace = window.findChild<QAction*>(QStringLiteral("timeBaseTrace"));
  ASSERT_TRUE(session && trace);
  EXPECT_TRUE(trace->isChecked());
  session->trigger();
  EXPECT_EQ(window.session()->timeBase(), TimeBase::Session);
  trace->trigger();
  EXPECT_EQ(window.session()->timeBase(), TimeBase::Trace);
}

}  // namespace
}  // namespace gpuscope::ui
