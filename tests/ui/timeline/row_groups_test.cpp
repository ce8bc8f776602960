// Issue 40, point 2: the GPU rows in view on open. A process's threads that did nothing fold into one "N idle
// threads" row, the profiler's own threads are hidden, rows can be hidden and pinned from their menu, and on
// a short window the least busy threads close until the GPU's rows fit.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QPushButton>
#include <filesystem>
#include <string>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_row_kinds.h"
#include "ui/timeline/timeline_row_menu.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

constexpr uint32_t kPid = 70;
constexpr uint32_t kMain = 70, kBusy = 71, kProfiler = 72;
constexpr uint32_t kFirstIdle = 80, kIdleCount = 15;
constexpr uint32_t kSpinner = 96, kPoolWorker = 97;

int64_t tidOf(uint32_t tid) { return global_id::make(0, 0, kPid, tid); }

// Process 70: the main thread launches 40 kernels; thread 71 makes 5 CUDA calls; fifteen threads (80-94) only
// wait in pthread_cond_wait all run; "gpuscope-cupti" (72) polls; 96 spins in OpenBLAS's wait loop, 97 works.
std::shared_ptr<const Trace> poolTrace() {
  std::string path = testing::processTempPath("row_groups", "trace.sqlite");
  {
    TraceWriter w(path);
    w.addProcess({global_id::make(0, 0, kPid, 0), kPid, "python3"});
    w.addThreadName({tidOf(kMain), "python3"});
    w.addThreadName({tidOf(kBusy), "loader"});
    w.addThreadName({tidOf(kProfiler), "gpuscope-cupti"});
    for (uint32_t i = 0; i < 40; ++i) {
      TimeNs at = 1000 + i * 1000;
      w.addCudaApi(
          {at, at + 100, CudaApiKind::Runtime, tidOf(kMain), i + 1, "cudaLaunchKernel_v7000", 0, std::nullopt});
      KernelRow kernel;
      kernel.start = at + 200;
      kernel.end = at + 800;
      kernel.contextId = 1;
      kernel.streamId = 7;
      kernel.correlationId = i + 1;
      kernel.globalPid = global_id::make(0, 0, kPid, 0);
      kernel.demangledName = "gemm";
      kernel.shortName = "gemm";
      w.addKernel(kernel);
    }
    for (uint32_t i = 0; i < 5; ++i)
      w.addCudaApi({500 + i * 10, 505 + i * 10, CudaApiKind::Runtime, tidOf(kBusy), 100 + i, "cudaMalloc_v3020", 0,
                    std::nullopt});
    for (uint32_t t = kFirstIdle; t < kFirstIdle + kIdleCount; ++t)
      w.addOsRuntime({600, 41000, tidOf(t), "pthread_cond_wait"});
    w.addOsRuntime({600, 41000, tidOf(kProfiler), "poll"});
    // Thread 96 spins in OpenBLAS's wait loop all run: it keeps its CPU busy doing nothing. Thread 97 is sampled
    // in a dgemm kernel its pool handed it: it works.
    SampleRows rows;
    rows.stacks.push_back({{"sched_yield", "/lib/libc.so.6", 0x10, false, false},
                           {"blas_thread_server", "/lib/libopenblas.so.0", 0x20, false, false},
                           {"start_thread", "/lib/libc.so.6", 0x30, false, false}});
    rows.stacks.push_back({{"dgemm_kernel_HASWELL", "/lib/libopenblas.so.0", 0x40, false, false},
                           {"blas_thread_server", "/lib/libopenblas.so.0", 0x20, false, false},
                           {"start_thread", "/lib/libc.so.6", 0x30, false, false}});
    for (TimeNs t = 1000; t < 41000; t += 1000) {
      rows.samples.push_back({t, kPid, kSpinner, 0, 0});
      rows.samples.push_back({t, kPid, kPoolWorker, 1, 1});
    }
    for (uint32_t tid : {kSpinner, kPoolWorker}) {
      rows.switches.push_back({600, kPid, tid, 0, true, false});
      rows.switches.push_back({41000, kPid, tid, 0, false, false});
    }
    writeSampleTables(w, rows);
    w.finish();
  }
  std::shared_ptr<const Trace> trace = loadTrace(path);
  std::filesystem::remove(path);
  return trace;
}

std::vector<std::string> shownLabels(const TimelineLayout& layout) {
  std::vector<std::string> labels;
  for (const auto& placed : layout.shown()) labels.push_back(layout.row(placed.row).label.toStdString());
  return labels;
}

int rowLabelled(const TimelineLayout& layout, const QString& label) {
  for (size_t i = 0; i < layout.rows().size(); ++i)
    if (layout.rows()[i].label == label) return static_cast<int>(i);
  return -1;
}

// TRACE's rows as a timeline lays them out.
TimelineLayout laidOut(const Trace& trace) {
  TimelineRowKinds kinds;
  kinds.onTraceChanged(&trace);
  TimelineLayout layout;
  layout.build(trace, kinds);
  return layout;
}

bool shown(const TimelineLayout& layout, const QString& label) {
  int row = rowLabelled(layout, label);
  return row >= 0 && layout.placementOf(row).row == row;
}

TEST(RowGroups, IdleThreadsFoldIntoOneRowAndTheProfilersAreHidden) {
  auto trace = poolTrace();
  TimelineLayout layout = laidOut(*trace);
  int folded = rowLabelled(layout, QStringLiteral("16 idle threads"));
  ASSERT_GE(folded, 0) << ::testing::PrintToString(shownLabels(layout));
  EXPECT_EQ(layout.row(folded).kind, RowKind::IdleThreads);
  EXPECT_TRUE(layout.row(folded).collapsed);
  EXPECT_TRUE(shown(layout, QStringLiteral("python3")));
  EXPECT_TRUE(shown(layout, QStringLiteral("loader")));
  EXPECT_FALSE(shown(layout, QStringLiteral("Thread 80")));
  EXPECT_FALSE(shown(layout, QStringLiteral("Thread 96"))) << "it only spun in its pool's wait loop";
  EXPECT_TRUE(shown(layout, QStringLiteral("Thread 97"))) << "it ran a kernel its pool handed it";
  EXPECT_FALSE(shown(layout, QStringLiteral("gpuscope-cupti")));
  EXPECT_EQ(layout.hiddenCount(), 1);
  // The GPU comes right after the process's working threads and the folded row: a few rows, not 17 threads.
  int device = rowLabelled(layout, QStringLiteral("GPU 0"));
  ASSERT_GE(device, 0);
  EXPECT_LT(layout.placementOf(device).top, 12 * 22) << ::testing::PrintToString(shownLabels(layout));
  // Opened, the fold lists the idle threads, each folded on its own.
  layout.setCollapsed(folded, false);
  EXPECT_TRUE(shown(layout, QStringLiteral("Thread 80")));
  EXPECT_TRUE(layout.row(rowLabelled(layout, QStringLiteral("Thread 80"))).collapsed);
}

TEST(RowGroups, TheRowMenuHidesPinsAndShowsHiddenRows) {
  TraceSession session;
  TimelineView view(&session);
  view.resize(1240, 900);
  view.show();
  session.setTrace(poolTrace());
  QApplication::processEvents();
  TimelineCanvas* canvas = view.canvas();
  const TimelineLayout& layout = canvas->layout();
  int device = rowLabelled(layout, QStringLiteral("GPU 0"));
  ASSERT_GE(device, 0);
  auto actionNamed = [](QMenu& menu, const QString& start) -> QAction* {
    for (QAction* action : menu.actions())
      if (action->text().startsWith(start)) return action;
    return nullptr;
  };
  // Pin the GPU: it is shown first.
  auto menu = rowMenu(*canvas, device);
  QAction* pin = actionNamed(*menu, QStringLiteral("Pin"));
  ASSERT_TRUE(pin);
  pin->trigger();
  EXPECT_EQ(layout.shown().front().row, device);
  EXPECT_EQ(layout.shown()[1].row, device + 1) << "the GPU's rows come with it";
  // Hide the loader thread; then show the hidden rows: the loader and the profiler's thread come back.
  int loader = rowLabelled(layout, QStringLiteral("loader"));
  menu = rowMenu(*canvas, loader);
  actionNamed(*menu, QStringLiteral("Hide"))->trigger();
  EXPECT_FALSE(shown(layout, QStringLiteral("loader")));
  menu = rowMenu(*canvas, device);
  QAction* showHidden = actionNamed(*menu, QStringLiteral("Show 2 hidden rows"));
  ASSERT_TRUE(showHidden);
  showHidden->trigger();
  EXPECT_TRUE(shown(layout, QStringLiteral("loader")));
  EXPECT_TRUE(shown(layout, QStringLiteral("gpuscope-cupti")));
  // Unpinned, the GPU goes back below the processes.
  menu = rowMenu(*canvas, device);
  actionNamed(*menu, QStringLiteral("Unpin"))->trigger();
  EXPECT_NE(layout.shown().front().row, device);
}

TEST(RowGroups, AShortWindowClosesTheLeastBusyThreadsUntilTheGpuFits) {
  auto trace = poolTrace();
  TimelineLayout layout = laidOut(*trace);
  int device = rowLabelled(layout, QStringLiteral("GPU 0"));
  int top = layout.placementOf(device).top;
  size_t at = 0;
  while (layout.shown()[at].row != device) ++at;
  int gpuBottom = layout.shown()[at + 3].bottom();  // the GPU, its utilization, its stream and kernels
  // A pixel short: closing the loader (5 calls) is enough, the main thread (40 launches) stays open.
  layout.fitGpuInView(gpuBottom - 1);
  EXPECT_TRUE(layout.row(rowLabelled(layout, QStringLiteral("loader"))).collapsed);
  EXPECT_FALSE(layout.row(rowLabelled(layout, QStringLiteral("python3"))).collapsed) << "the busiest stays open";
  EXPECT_LT(layout.placementOf(device).top, top);
}

TEST(TimelineFocus, TheTimelineHasTheKeyboardOnceATraceOpens) {
  TraceSession session;
  QWidget window;
  auto* other = new QPushButton(QStringLiteral("elsewhere"), &window);
  auto* view = new TimelineView(&session, &window);
  view->setGeometry(0, 40, 1240, 600);
  window.resize(1240, 640);
  window.show();
  QApplication::setActiveWindow(&window);
  other->setFocus();
  QApplication::processEvents();
  ASSERT_FALSE(view->canvas()->hasFocus());
  session.setTrace(poolTrace());
  QApplication::processEvents();
  EXPECT_TRUE(view->canvas()->hasFocus());
}

// Counts the paint events a widget gets.
class PaintCounter : public QObject {
 public:
  int paints = 0;
  bool eventFilter(QObject* /*watched*/, QEvent* event) override {
    if (event->type() == QEvent::Paint) ++paints;
    return false;
  }
};

// A function picked in the CPU Samples tab repaints the timeline at once, so its samples' ticks stand out
// without waiting for the next scroll or zoom.
TEST(TimelineFocus, AHighlightedFunctionRepaintsTheTimeline) {
  TraceSession session;
  TimelineView view(&session);
  view.resize(1240, 600);
  view.show();
  session.setTrace(poolTrace());
  QApplication::processEvents();
  PaintCounter counter;
  view.canvas()->installEventFilter(&counter);
  session.setHighlightedFunction(QStringLiteral("sched_yield"));
  QApplication::processEvents();
  EXPECT_GT(counter.paints, 0);
}

}  // namespace
}  // namespace gpuscope::ui
