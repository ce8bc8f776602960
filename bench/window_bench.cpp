// window_bench: the whole open-to-window path of gpuscope-ui on one trace, beside the yardstick scan.
//
//   window_bench FILE [--size WxH]
//
// Scans the loader's columns with sqlite3 (twice, keeping the faster), then, in the same process, opens
// FILE in the main window (offscreen, 1920x1080 by default) as `gpuscope-ui FILE` does, and measures the
// time until every pane is filled: the trace loaded, the kernel table holding its rows and the window
// painted once. Then it times paints of the timeline at a few zoom levels and of the whole window, a sort
// of the kernel table by duration, and reports the process's peak resident memory
// (getrusage ru_maxrss) per event. Targets (issue 15): open <= 1.2x the scan, <= 48 B/event, p99 <= 16 ms.
#include <malloc.h>
#include <sys/resource.h>

#include <QAbstractItemModel>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTableView>
#include <QTreeView>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench/column_scan.h"
#include "ui/loading/background_trace_loader.h"
#include "ui/loading/integrity_checker.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace {

using gpuscope::ui::MainWindow;

double msSince(const QElapsedTimer& timer) { return static_cast<double>(timer.nsecsElapsed()) / 1e6; }

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double rank = p * static_cast<double>(values.size() - 1);
  auto lo = static_cast<size_t>(std::floor(rank));
  auto hi = static_cast<size_t>(std::ceil(rank));
  return values[lo] + (values[hi] - values[lo]) * (rank - static_cast<double>(lo));
}

// A field of /proc/self/status in bytes (VmRSS, VmHWM), 0 where unavailable.
int64_t procStatusBytes(const char* field) {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (!status) return 0;
  char line[256];
  int64_t kib = 0;
  const size_t length = std::strlen(field);
  while (std::fgets(line, sizeof line, status)) {
    if (std::strncmp(line, field, length) == 0 && line[length] == ':') kib = std::atoll(line + length + 1);
  }
  std::fclose(status);
  return kib * 1024;
}

// Starts a new high-water mark at the current RSS, so that VmHWM tells one phase's peak.
void resetPeak() {
  if (std::FILE* refs = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", refs);
    std::fclose(refs);
  }
}

// Bytes malloc has handed out and not had back, in every arena and in mmapped chunks.
size_t mallocInUse() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

int64_t peakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

// Runs the event loop until DONE holds (or the load fails); false on failure.
bool waitUntil(MainWindow& window, const std::function<bool()>& done) {
  bool failed = false;
  QObject::connect(&window, &MainWindow::loadFailed, &window, [&failed] { failed = true; });
  while (!failed && !done()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
  return !failed;
}

// Every instance shows (no filter): the kernel table has a row per kernel of the trace.
bool kernelTableFilled(const MainWindow& window) {
  const auto& trace = window.session()->trace();
  if (!trace) return false;
  return static_cast<size_t>(window.analysisView()->kernels()->view()->model()->rowCount()) == trace->counts().kernels;
}

struct Frames {
  std::vector<double> ms;
  void time(const std::function<void()>& paint) {
    QElapsedTimer timer;
    timer.start();
    paint();
    ms.push_back(msSince(timer));
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  QSize size(1920, 1080);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
      int w = 0, h = 0;
      if (std::sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 200 || h < 150) {
        std::fprintf(stderr, "window_bench: --size wants WIDTHxHEIGHT, like 1920x1080.\n");
        return 2;
      }
      size = QSize(w, h);
    } else if (argv[i][0] != '-' && path.empty()) {
      path = argv[i];
    } else {
      std::fprintf(stderr, "usage: window_bench FILE [--size WxH]\n");
      return 2;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: window_bench FILE [--size WxH]\n");
    return 2;
  }
  gpuscope::bench::ScanResult scan = gpuscope::bench::fastestScan(path);

  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  MainWindow window(nullptr, MainWindow::Mode::Batch);
  window.setAttribute(Qt::WA_DontShowOnScreen);
  window.resize(size);
  window.show();
  QCoreApplication::processEvents();
  QImage image(window.size(), QImage::Format_ARGB32_Premultiplied);
  const int64_t baseline = procStatusBytes("VmRSS");  // Qt, the window, the scan's leftovers
  resetPeak();

  // The open: from the request to a window with every pane filled and painted.
  QElapsedTimer open;
  open.start();
  double cpuStart = gpuscope::bench::processCpuSeconds();
  window.openFile(QString::fromStdString(path));
  double loadedMs = 0;  // the loader's own time, on its worker, before any pane sees the trace
  QObject::connect(window.loader(), &gpuscope::ui::BackgroundTraceLoader::loaded, &window,
                   [&](const QString&, const std::shared_ptr<const gpuscope::Trace>&, qint64 ms) {
                     loadedMs = static_cast<double>(ms);
                   });
  // On the loader's worker as its load ends, before the GUI thread hands the trace to any pane: what the
  // load leaves resident, and how much of that malloc still hands out (the rest is freed but kept).
  int64_t loadedResident = 0;
  size_t loadedInUse = 0;
  QObject::connect(
      window.loader(), &gpuscope::ui::BackgroundTraceLoader::workerFinished, window.loader(),
      [&](quint64, const std::shared_ptr<const gpuscope::Trace>&, const QString&) {
        loadedResident = procStatusBytes("VmRSS");
        loadedInUse = mallocInUse();
      },
      Qt::DirectConnection);
  int64_t loadPeak = 0;  // the loader's peak: read once the trace is in, before the panes' work shows
  QObject::connect(&window, &MainWindow::traceLoaded, &window, [&] {
    loadPeak = procStatusBytes("VmHWM");
    resetPeak();
  });
  // The file's integrity check starts once the panes are filled, at idle priority (IntegrityChecker).
  double integrityMs = -1;
  QString integrityProblem;
  QObject::connect(window.integrity(), &gpuscope::ui::IntegrityChecker::checked, &window,
                   [&](const QString&, const QString& problem) {
                     integrityMs = msSince(open);
                     integrityProblem = problem;
                   });
  if (!waitUntil(window, [&] { return kernelTableFilled(window); })) return 1;
  double tableMs = msSince(open);
  {
    QPainter painter(&image);
    window.render(&painter);
  }
  double filledMs = msSince(open);
  double openCpu = gpuscope::bench::processCpuSeconds() - cpuStart;
  const int64_t panesPeak = procStatusBytes("VmHWM");
  const int64_t openResident = procStatusBytes("VmRSS");
  const size_t openInUse = mallocInUse();

  // Frames: the timeline alone at zoom levels from the whole trace down to a microsecond, and the window.
  gpuscope::ui::TraceSession& session = *window.session();
  const auto& trace = session.trace();
  gpuscope::ui::TimelineCanvas* canvas = window.analysisView()->timeline()->canvas();
  Frames timeline;
  Frames whole;
  const double span = static_cast<double>(std::max<gpuscope::TimeNs>(1, trace->endTime() - trace->startTime()));
  for (double width = span; width >= 1000.0; width /= 8.0) {
    for (int k = 0; k < 4; ++k) {
      auto from = trace->startTime() + static_cast<gpuscope::TimeNs>((span - width) * k / 4.0);
      session.setViewRange(from, from + static_cast<gpuscope::TimeNs>(width));
      timeline.time([&] {
        QPainter painter(&image);
        canvas->render(&painter);
      });
    }
  }
  for (int k = 0; k < 5; ++k) {
    whole.time([&] {
      QPainter painter(&image);
      window.render(&painter);
    });
  }

  // The kernel table's heavy work: a sort by duration and a filter, until their rows show.
  auto* table = window.analysisView()->kernels()->view();  // a QTreeView before issue 15, then a QTableView
  gpuscope::TimeNs longest = 0;
  for (const auto& track : trace->tracks()) {
    if (track.kind != gpuscope::TrackKind::GpuKernels) continue;
    for (const auto& lane : track.lanes) {
      for (size_t i = 0; i < lane.size(); ++i) longest = std::max(longest, lane.end(i) - lane.start[i]);
    }
  }
  QElapsedTimer sortTimer;
  sortTimer.start();
  table->sortByColumn(3, Qt::DescendingOrder);  // Duration
  QCoreApplication::processEvents();
  double sortCallMs = msSince(sortTimer);
  waitUntil(window, [&] {
    return table->model()->rowCount() > 0 && table->model()->index(0, 3).data(Qt::UserRole + 1).toLongLong() == longest;
  });
  double sortMs = msSince(sortTimer);

  waitUntil(window, [&] { return integrityMs >= 0; });

  const double events = static_cast<double>(trace->counts().total());
  const int64_t peak = peakResidentBytes();
  const double scanMs = scan.seconds * 1000.0;
  std::printf("window_bench: %s, %.0f events (%zu kernels, %zu CUDA API, %zu OS runtime), window %dx%d\n", path.c_str(),
              events, trace->counts().kernels, trace->counts().cudaApi, trace->counts().osrt, size.width(),
              size.height());
  std::printf("  sqlite3 scan of the loader's columns, 1 thread   %8.0f ms  (CPU %.0f ms)\n", scanMs,
              scan.cpuSeconds * 1000.0);
  std::printf("  open: trace loaded (loadTrace on its worker)      %8.0f ms\n", loadedMs);
  std::printf("  open: kernel table filled                         %8.0f ms\n", tableMs);
  std::printf("  open: all panes filled and painted                %8.0f ms  = %.2fx the scan (target <= 1.20)\n",
              filledMs, filledMs / scanMs);
  std::printf("  open: CPU time, all threads                       %8.0f ms  = %.2fx the scan's CPU time\n",
              openCpu * 1000.0, openCpu / scan.cpuSeconds);
  std::printf("  peak RSS (ru_maxrss), whole process               %8.0f MiB = %.1f B/event (target <= 48)\n",
              static_cast<double>(peak) / (1 << 20), static_cast<double>(peak) / events);
  auto perEvent = [&](int64_t bytes) { return static_cast<double>(bytes) / events; };
  std::printf(
      "    before the open: %.0f MiB (%.1f B/event); the load's peak %.1f B/event, then the panes' %.1f;"
      " resident once open %.1f\n",
      static_cast<double>(baseline) / (1 << 20), perEvent(baseline), perEvent(loadPeak), perEvent(panesPeak),
      perEvent(openResident));
  std::printf("    resident when the load ends %.1f B/event (malloc in use %.1f); once open %.1f (in use %.1f)\n",
              perEvent(loadedResident), perEvent(static_cast<int64_t>(loadedInUse)), perEvent(openResident),
              perEvent(static_cast<int64_t>(openInUse)));
  std::printf("  timeline frames: %3zu   p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms (target p99 <= 16)\n",
              timeline.ms.size(), percentile(timeline.ms, 0.5), percentile(timeline.ms, 0.99),
              *std::max_element(timeline.ms.begin(), timeline.ms.end()));
  std::printf("  window frames:   %3zu   p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms\n", whole.ms.size(),
              percentile(whole.ms, 0.5), percentile(whole.ms, 0.99),
              *std::max_element(whole.ms.begin(), whole.ms.end()));
  std::printf("  the file's integrity check (idle priority, after the panes) done at %.0f ms: %s\n", integrityMs,
              integrityProblem.isEmpty() ? "no damage" : integrityProblem.toLocal8Bit().constData());
  std::printf("  kernel table sort by duration: GUI thread busy %.0f ms, rows sorted after %.0f ms\n", sortCallMs,
              sortMs);
  // Leaves without tearing the window down: what is live now is what the open state holds, which is what a
  // heap profiler then reports as not freed.
  std::fflush(stdout);
  std::_Exit(0);
}
