// Folded runs of short kernels are painted by their density: at a zoom where thousands of kernels merge
// into one block, the share of the row's pixels painted in the fold colour follows how busy the stream
// is (15% busy reads as about 15%, not as a solid bar), and a stream busy all the time still paints solid.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QImage>
#include <QScrollBar>
#include <cmath>
#include <filesystem>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/query/draw_list.h"
#include "core/write/trace_writer.h"
#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

namespace fs = std::filesystem;

using timeline_test::kAreaWidth;
constexpr TimeNs kPeriod = 1000;  // a kernel starts every microsecond
constexpr int kKernels = 20000;   // 20 ms of them

// One stream of KERNELS kernels of DURATION ns, one every kPeriod ns: DURATION / kPeriod busy.
std::shared_ptr<const Trace> launchBoundRun(TimeNs duration) {
  const int64_t pid = global_id::make(0, 0, 7, 0);
  auto path = (fs::path(::testing::TempDir()) /
               ("fold_density_" + std::to_string(::getpid()) + "_" + std::to_string(duration) + ".sqlite"))
                  .string();
  {
    TraceWriter w(path);
    w.addProcess({pid, 7, "launcher"});
    for (int i = 0; i < kKernels; ++i) {
      KernelRow row;
      row.start = 1'000'000 + i * kPeriod;
      row.end = row.start + duration;
      row.contextId = 1;
      row.streamId = 7;
      row.correlationId = static_cast<uint32_t>(i + 1);
      row.globalPid = pid;
      row.demangledName = "tiny_kernel";
      row.shortName = "tiny_kernel";
      w.addKernel(row);
    }
    w.finish();
  }
  std::shared_ptr<const Trace> trace = loadTrace(path);
  // Set GPUSCOPE_SCREENSHOT_DIR to keep the file, for looking at it in the viewer.
  const QString dir = qEnvironmentVariable("GPUSCOPE_SCREENSHOT_DIR");
  if (!dir.isEmpty())
    fs::copy_file(path, fs::path(dir.toStdString()) / ("launch_bound_" + std::to_string(duration) + "ns.sqlite"),
                  fs::copy_options::overwrite_existing);
  fs::remove(path);
  return trace;
}

bool near(QRgb pixel, const QColor& color, int tolerance) {
  return std::abs(qRed(pixel) - color.red()) <= tolerance && std::abs(qGreen(pixel) - color.green()) <= tolerance &&
         std::abs(qBlue(pixel) - color.blue()) <= tolerance;
}

struct RowPixels {
  double foldShare = 0;  // of the bar's pixels over the block, those painted in the fold colour
  size_t folds = 0;      // folded blocks in the frame
};

// Paints TRACE at 16 ms across kAreaWidth px and measures the kernel row's pixels over the folded block.
RowPixels paintAt16ms(const std::shared_ptr<const Trace>& trace) {
  TraceSession session;
  session.setTrace(trace);
  TimelineView view(&session);
  view.resize(TimelineCanvas::kLabelWidth + kAreaWidth + view.verticalScrollBar()->sizeHint().width(), 500);
  view.show();
  QApplication::processEvents();
  TimelineCanvas* canvas = view.canvas();
  EXPECT_EQ(canvas->eventArea().width(), kAreaWidth);
  const TimeNs start = trace->startTime() + 2'000'000;
  session.setViewRange(start, start + 16'000'000);
  QImage image = canvas->grab().toImage();

  uint32_t kernels = TimelineRow::kNoTrack;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t)
    if (trace->track(t).kind == TrackKind::GpuKernels) kernels = t;
  EXPECT_NE(kernels, TimelineRow::kNoTrack);
  QRect lane = canvas->laneRect(kernels, 0);
  EXPECT_FALSE(lane.isEmpty());
  // The bar: 1 px below the lane's top, kLaneHeight - 2 tall; the block fills the whole event area here.
  const QColor fold = foldColor(TrackKind::GpuKernels);
  size_t painted = 0;
  size_t total = 0;
  const QRect area = canvas->eventArea();
  for (int y = lane.top() + 1; y < lane.top() + TrackRowKind::kLaneHeight - 1; ++y) {
    for (int x = area.left() + 2; x < area.right() - 2; ++x) {
      ++total;
      if (near(image.pixel(x, y), fold, 6)) ++painted;
    }
  }
  return {static_cast<double>(painted) / static_cast<double>(total), canvas->lastFrame().folds};
}

TEST(FoldDensity, ALaunchBoundStreamPaintsItsBusyShareNotASolidBlock) {
  RowPixels pixels = paintAt16ms(launchBoundRun(150));  // 15% busy
  ASSERT_GT(pixels.folds, 0u) << "the kernels should fold at 16 us per pixel";
  EXPECT_NEAR(pixels.foldShare, 0.15, 0.04);
}

TEST(FoldDensity, AStreamBusyAllTheTimeStaysSolid) {
  RowPixels pixels = paintAt16ms(launchBoundRun(kPeriod));  // back to back: 100% busy
  ASSERT_GT(pixels.folds, 0u);
  // All of it, but for the count written on the block.
  EXPECT_GT(pixels.foldShare, 0.9);
}

}  // namespace
}  // namespace gpuscope::ui
