// One time base everywhere: the kernel table, the details panel and the tooltips count from the trace start as
// the ruler does, and View > Times Count From switches all of them to session time (on loader2.sqlite, whose
// first event comes seconds into the session).
#include <gtest/gtest.h>

#include <QAction>
#include <QSettings>
#include <QTemporaryDir>

#include "core/details/detail_text.h"
#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "ui/details/details_panel.h"
#include "ui/main_window/main_window.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

std::shared_ptr<const Trace> loader2() {
  static std::shared_ptr<const Trace> trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  return trace;
}

QString shownDuration(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

TEST(TimeBase, TablesDetailsAndTooltipsCountFromTheTraceStartLikeTheRuler) {
  const Trace& trace = *loader2();
  ASSERT_GT(trace.startTime(), 1000000);  // the two bases differ
  TraceSession session;
  EXPECT_EQ(session.timeBase(), TimeBase::Trace);
  KernelTableView table(&session);
  DetailsPanel details(&session);
  session.setTrace(loader2());
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
