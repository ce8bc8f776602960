// Issue 30, point 2: a row of a trace report selects exactly its event, found by correlation id and start, never
// the first event of its name. The launch-bound fixture launches one kernel 10,001 times.
#include "ui/tables/report_row_event.h"

#include <gtest/gtest.h>

#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTreeView>
#include <variant>

#include "core/model/trace_loader.h"
#include "core/stats/stats_reports.h"
#include "tests/core/testing/gz_fixture.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/stats_reports_view.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {
namespace {

std::shared_ptr<const Trace> launchTrace() {
  static std::shared_ptr<const Trace> trace = loadTrace(testing::classFixture("launch", "nsys"));
  return trace;
}

size_t columnOf(const ReportTable& report, const std::string& title) {
  for (size_t column = 0; column < report.columns.size(); ++column)
    if (report.columns[column].title == title) return column;
  ADD_FAILURE() << "no column " << title << " in " << report.name;
  return 0;
}

int64_t integerCell(const ReportTable& report, size_t row, const std::string& title) {
  const ReportCell& cell = report.rows.at(row).at(columnOf(report, title));
  EXPECT_TRUE(std::holds_alternative<int64_t>(cell)) << title;
  return std::holds_alternative<int64_t>(cell) ? std::get<int64_t>(cell) : -1;
}

std::string textCell(const ReportTable& report, size_t row, const std::string& title) {
  const auto* text = std::get_if<std::string>(&report.rows.at(row).at(columnOf(report, title)));
  return text ? *text : std::string();
}

uint32_t correlationOf(const Trace& trace, EventRef event) { return trace.lane(event).correlation[event.index]; }

// The rows of REPORT shown in VIEW, picked one by one as a click does (in the view's order after a sort).
class ShownReport {
 public:
  explicit ShownReport(const char* name) {
    view_.resize(1000, 600);
    view_.show();
    session_.setTrace(launchTrace());
    EXPECT_TRUE(view_.showReport(QString::fromLatin1(name)));
    ReportPane* pane = view_.pane();
    if (pane->isRunning()) {
      QSignalSpy ready(pane, &ReportPane::reportReady);
      EXPECT_TRUE(ready.wait(60000));
    }
  }
  const ReportTable& report() const { return view_.pane()->model()->report(); }
  // Clicks the view's row showing source row ROW; the selection it made.
  std::optional<EventRef> pick(int row) {
    QTreeView* tree = view_.pane()->view();
    QModelIndex index = view_.pane()->proxy()->mapFromSource(view_.pane()->model()->index(row, 0));
    tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    return session_.selection();
  }
  QTreeView* tree() const { return view_.pane()->view(); }
  ReportPane* pane() const { return view_.pane(); }
  TraceSession& session() { return session_; }

 private:
  TraceSession session_;
  StatsReportsView view_{&session_};
};

TEST(ReportRowEvent, EachCudaGpuTraceRowSelectsItsOwnKernelNotTheFirstOfItsName) {
  const Trace& trace = *launchTrace();
  ShownReport shown("cuda_gpu_trace");
  const ReportTable& report = shown.report();
  ASSERT_GT(report.rows.size(), 10000u);
  // Sorted by duration, so that the view's rows are not the report's: the pick goes through the proxy.
  shown.tree()->sortByColumn(static_cast<int>(columnOf(report, "Duration (ns)")), Qt::DescendingOrder);
  for (size_t row : {size_t{1}, size_t{2}, size_t{3}, size_t{125}, size_t{5000}, report.rows.size() - 1}) {
    std::optional<EventRef> event = shown.pick(static_cast<int>(row));
    ASSERT_TRUE(event) << "row " << row;
    EXPECT_EQ(correlationOf(trace, *event), integerCell(report, row, "CorrId")) << "row " << row;
    EXPECT_EQ(trace.start(*event), integerCell(report, row, "Start (ns)")) << "row " << row;
    EXPECT_TRUE(trace.track(event->track).isGpu());
  }
}

// The other way: a kernel picked on the timeline or in the Kernels table is the trace report's current row
// (it was left unmarked), found among 10,001 launches of one name, and marking it moves no zoom.
TEST(ReportRowEvent, AKernelSelectedElsewhereIsTheCurrentRowOfTheTraceReport) {
  const Trace& trace = *launchTrace();
  ShownReport shown("cuda_gpu_trace");
  const ReportTable& report = shown.report();
  ASSERT_GT(report.rows.size(), 10000u);
  for (size_t row : {size_t{125}, size_t{5000}, size_t{3}}) {
    std::optional<EventRef> event = eventOfReportRow(trace, report, row);
    ASSERT_TRUE(event) << "row " << row;
    EXPECT_EQ(reportRowOfEvent(trace, report, *event), row);
    TimeNs viewStart = shown.session().viewStart();
    shown.session().select(*event);
    QModelIndex current = shown.tree()->currentIndex();
    ASSERT_TRUE(current.isValid()) << "row " << row;
    EXPECT_EQ(shown.pane()->proxy()->mapToSource(current).row(), static_cast<int>(row));
    EXPECT_EQ(shown.session().viewStart(), viewStart);
  }
  // A summary's rows are groups: none stands for one kernel.
  EXPECT_FALSE(reportRowOfEvent(trace, ReportTable{"cuda_gpu_kern_sum", "", report.columns, report.rows},
                                *eventOfReportRow(trace, report, 3)));
}

TEST(ReportRowEvent, EachCudaApiTraceRowSelectsItsOwnCall) {
  const Trace& trace = *launchTrace();
  ShownReport shown("cuda_api_trace");
  const ReportTable& report = shown.report();
  ASSERT_GT(report.rows.size(), 10000u);
  for (size_t row : {size_t{40}, size_t{41}, size_t{7000}, report.rows.size() - 2}) {
    std::optional<EventRef> event = shown.pick(static_cast<int>(row));
    ASSERT_TRUE(event) << "row " << row;
    EXPECT_EQ(trace.track(event->track).kind, TrackKind::CudaApi);
    EXPECT_EQ(correlationOf(trace, *event), integerCell(report, row, "CorrID")) << "row " << row;
    EXPECT_EQ(trace.start(*event), integerCell(report, row, "Start (ns)")) << "row " << row;
    EXPECT_EQ(trace.track(event->track).tid, integerCell(report, row, "Tid"));
  }
}

TEST(ReportRowEvent, EachKernelExecTraceRowSelectsTheKernelItsCallLaunched) {
  const Trace& trace = *launchTrace();
  ReportTable report = runStatsReport(trace.database(), "cuda_kern_exec_trace");
  ASSERT_GT(report.rows.size(), 10000u);
  for (size_t row : {size_t{0}, size_t{1}, size_t{9999}}) {
    std::optional<EventRef> event = eventOfReportRow(trace, report, row);
    ASSERT_TRUE(event) << "row " << row;
    EXPECT_EQ(trace.track(event->track).kind, TrackKind::GpuKernels);
    EXPECT_EQ(trace.start(*event), integerCell(report, row, "Kernel Start (ns)")) << "row " << row;
    std::optional<EventRef> call = trace.launchingCall(*event);
    ASSERT_TRUE(call);
    EXPECT_EQ(trace.start(*call), integerCell(report, row, "API Start (ns)"));
  }
}

TEST(ReportRowEvent, SummaryRowsSelectTheirGroupsEarliestInstance) {
  const Trace& trace = *test::transposeTrace();
  ReportTable api = runStatsReport(trace.database(), "cuda_api_sum");
  bool sawMalloc = false;
  for (size_t row = 0; row < api.rows.size(); ++row) {
    std::optional<EventRef> event = eventOfReportRow(trace, api, row);
    ASSERT_TRUE(event) << textCell(api, row, "Name");
    // nsys drops the "_v3020" tag that the file's names carry.
    if (textCell(api, row, "Name") == "cudaMalloc") {
      sawMalloc = true;
      EXPECT_EQ(trace.name(*event), "cudaMalloc_v3020");
    }
  }
  EXPECT_TRUE(sawMalloc);
  ReportTable nvtx = runStatsReport(trace.database(), "nvtx_kern_sum");
  for (size_t row = 0; row < nvtx.rows.size(); ++row) {
    std::optional<EventRef> event = eventOfReportRow(trace, nvtx, row);
    ASSERT_TRUE(event) << "nvtx_kern_sum row " << row;
    // A kernel launched outside every range names the kernel; the others the range.
    bool inRange = !textCell(nvtx, row, "NVTX Range").empty();
    EXPECT_EQ(trace.track(event->track).kind, inRange ? TrackKind::Nvtx : TrackKind::GpuKernels);
  }
  ReportTable memory = runStatsReport(trace.database(), "cuda_gpu_mem_time_sum");
  ASSERT_FALSE(memory.rows.empty());
  std::optional<EventRef> copy = eventOfReportRow(trace, memory, 0);
  ASSERT_TRUE(copy);
  EXPECT_EQ(trace.track(copy->track).kind, TrackKind::GpuMemory);
}

}  // namespace
}  // namespace gpuscope::ui
