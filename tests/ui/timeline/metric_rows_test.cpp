// Issue 41, point 3: under each GPU a "GPU Metrics" group of counter rows, drawn per pixel column from the
// samples under it (band min..max, mean filled), and a memory row per process with its peak; a click on a memory
// step selects that allocation or free and the details pane describes it, with a link to the CUDA API call.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QTest>
#include <cmath>
#include <memory>
#include <string>

#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/gpu_metrics.h"
#include "core/metrics/memory_usage.h"
#include "core/model/trace_loader.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "ui/details/details_panel.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/counter_row_kind.h"
#include "ui/timeline/memory_row_kind.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

constexpr int kArea = 1000;

std::shared_ptr<const Trace> transposeTrace() {
  static std::shared_ptr<const Trace> trace = loadTrace(testing::gpuMetricsFixture("gm_transpose"));
  return trace;
}

std::vector<int> rowsOfKind(const TimelineLayout& layout, RowKind kind) {
  std::vector<int> out;
  for (size_t i = 0; i < layout.rows().size(); ++i)
    if (layout.rows()[i].kind == kind) out.push_back(static_cast<int>(i));
  return out;
}

class MetricRows : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = transposeTrace();
    session_.setTrace(trace_);
    view_ = std::make_unique<TimelineView>(&session_);
    view_->resize(TimelineCanvas::kLabelWidth + kArea + view_->verticalScrollBar()->sizeHint().width(), 900);
    view_->show();
    details_.resize(500, 600);
    details_.show();
    QApplication::processEvents();
    canvas_ = view_->canvas();
    ASSERT_EQ(canvas_->eventArea().width(), kArea);
  }
  const TimelineLayout& layout() const { return canvas_->layout(); }
  int topOf(int row) const {
    return canvas_->eventArea().top() + layout().placementOf(row).top - view_->verticalScrollBar()->value();
  }
  // Scrolls ROW into view.
  void scrollTo(int row) {
    view_->verticalScrollBar()->setValue(std::max(0, layout().placementOf(row).top - 100));
    QApplication::processEvents();
  }

  std::shared_ptr<const Trace> trace_;
  TraceSession session_;
  std::unique_ptr<TimelineView> view_;
  DetailsPanel details_{&session_};
  TimelineCanvas* canvas_ = nullptr;
};

TEST_F(MetricRows, EachGpuHasAMetricsGroupWithOneRowPerCounterInItsOrder) {
  const GpuMetrics& metrics = gpuMetrics(*trace_);
  ASSERT_EQ(metrics.devices.size(), 1u);
  const GpuMetricDevice& device = metrics.devices.front();
  ASSERT_EQ(device.metrics.size(), 22u);
  std::vector<int> groups = rowsOfKind(layout(), RowKind::MetricGroup);
  ASSERT_EQ(groups.size(), 1u);
  const TimelineRow& group = layout().row(groups.front());
  EXPECT_EQ(group.label, QStringLiteral("GPU Metrics"));
  EXPECT_TRUE(group.isHeader());
  EXPECT_EQ(layout().row(group.parent).kind, RowKind::Device);
  EXPECT_EQ(group.detail, QStringLiteral("22 counters, sampled at 1 kHz"));
  std::vector<int> counters = rowsOfKind(layout(), RowKind::Counter);
  ASSERT_EQ(counters.size(), 22u);
  for (size_t i = 0; i < counters.size(); ++i) {
    const TimelineRow& row = layout().row(counters[i]);
    EXPECT_EQ(row.parent, groups.front());
    EXPECT_EQ(row.series, i);
    std::string_view label = gpu_metric::labelOf(device.metrics[i].name());
    EXPECT_TRUE(row.label.startsWith(QString::fromUtf8(label.data(), static_cast<int>(label.size())))) << i;
  }
  // Timeline order: GR Active, then SMs Active first of all.
  EXPECT_EQ(layout().row(counters[0]).label, QStringLiteral("GR Active"));
  EXPECT_EQ(layout().row(counters[1]).label, QStringLiteral("SMs Active"));
  // A clock keeps its unit on the label.
  bool clock = false;
  for (int c : counters) clock = clock || layout().row(c).label == QStringLiteral("GPC Clock Frequency [MHz]");
  EXPECT_TRUE(clock);
  // Collapsing the group leaves its counter rows out.
  int shownBefore = static_cast<int>(layout().shown().size());
  const_cast<TimelineLayout&>(layout()).setCollapsed(groups.front(), true);
  EXPECT_EQ(static_cast<int>(layout().shown().size()), shownBefore - 22);
}

// The painted pixels of one column follow its samples: a column whose samples are all 100% is filled to the top,
// one of 0% is empty, and one whose samples go 0..100 shows the lighter band above the mean's fill.
TEST(CounterRowPaint, ColumnsShowTheirSamplesMeanFilledAndMinMaxBand) {
  std::vector<TimeNs> time;
  std::vector<int64_t> value;
  // 100 columns of 10 ns: columns 0-29 at 100%, 30-59 at 0%, 60-99 alternate 0 and 100 each nanosecond.
  for (TimeNs t = 0; t < 1000; ++t) {
    time.push_back(t);
    value.push_back(t < 300 ? 100 : t < 600 ? 0 : (t % 2 == 0 ? 0 : 100));
  }
  MetricSeries series(std::string(gpu_metric::kSmsActive), std::move(time), std::move(value));
  QImage image(100, 40, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  CounterPaint how;
  how.rect = QRectF(0, 0, 100, 40);
  how.viewStart = 0;
  how.nsPerPixel = 10;
  how.period = 1;
  how.scaleMax = CounterRowKind::scaleOf(series);
  EXPECT_EQ(how.scaleMax, 100.0);
  std::vector<SeriesStats> scratch;
  {
    QPainter p(&image);
    CounterRowKind::paintSeries(p, series, how, scratch);
  }
  ASSERT_EQ(scratch.size(), 100u);
  EXPECT_EQ(scratch[70].count, 10u);
  EXPECT_EQ(scratch[70].min, 0);
  EXPECT_EQ(scratch[70].max, 100);
  EXPECT_DOUBLE_EQ(scratch[70].mean(), 50.0);
  auto darkness = [&](int x, int y) { return 255 - qGray(image.pixel(x, y)); };
  EXPECT_GT(darkness(15, 3), 60);  // 100%: filled near the top
  EXPECT_EQ(darkness(45, 3), 0);   // 0%: nothing above the baseline
  EXPECT_EQ(darkness(45, 20), 0);
  // 0..100, mean 50: lighter band near the top, the mean's fill near the bottom, and the fill darker.
  EXPECT_GT(darkness(80, 3), 10);
  EXPECT_GT(darkness(80, 35), darkness(80, 3) + 20);
}

TEST(CounterRowPaint, ZoomedPastThePeriodEachColumnShowsTheSampleCoveringIt) {
  // Samples every 1000 ns; a view of 10 ns a pixel: each sample covers the 100 columns from its timestamp on (a
  // GPU_METRICS timestamp is its interval's start).
  MetricSeries series(std::string(gpu_metric::kDramRead), {1000, 2000, 3000}, {10, 90, 40});
  CounterPaint how;
  how.viewStart = 0;
  how.nsPerPixel = 10;
  how.period = 1000;
  std::vector<SeriesStats> columns;
  counterColumns(series, how, 400, columns);
  EXPECT_EQ(columns[50].count, 0u);  // before the first sample: nothing
  EXPECT_EQ(columns[150].count, 1u);
  EXPECT_EQ(columns[150].max, 10);
  EXPECT_EQ(columns[250].max, 90);
  EXPECT_EQ(columns[350].max, 40);
}

TEST_F(MetricRows, CounterTooltipGivesTheMeanMinMaxAndTime) {
  const GpuMetricDevice& device = gpuMetrics(*trace_).devices.front();
  const MetricSeries* sms = device.find(gpu_metric::kSmsActive);
  ASSERT_NE(sms, nullptr);
  int row = -1;
  for (int c : rowsOfKind(layout(), RowKind::Counter))
    if (layout().row(c).label == QStringLiteral("SMs Active")) row = c;
  ASSERT_GE(row, 0);
  // The run's samples in 100 px: each pixel holds about nine samples.
  TimelineGeometry g;
  g.area = QRect(0, 0, 100, 20);
  g.viewStart = sms->times().front() - 1;
  g.viewEnd = sms->times().back() + 1;
  CounterRowKind kind;
  kind.onTraceChanged(trace_.get());
  const double x = 50;
  const TimeNs t0 = g.timeAtX(x);
  SeriesStats column = sms->statsWithin(t0, t0 + std::llround(g.nsPerPixel()));
  ASSERT_GT(column.count, 1u);
  QString text = kind.tooltip(layout().row(row), TimelineHit{}, x, RowTooltipContext{*trace_, g, {}, TimeBase::Trace});
  EXPECT_TRUE(text.startsWith(QStringLiteral("<b>SMs Active</b> (GPU 0)"))) << text.toStdString();
  EXPECT_TRUE(text.contains(
      QStringLiteral("min %1%, max %2% over %3 samples").arg(column.min).arg(column.max).arg(column.count)))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("<br>at "))) << text.toStdString();
  // Zoomed in past the 1 ms period, a pixel shows the one sample that covers it, without a range.
  g.viewStart = sms->times()[10] - 500000;
  g.viewEnd = g.viewStart + 100000;  // 1 us a pixel
  text = kind.tooltip(layout().row(row), TimelineHit{}, x, RowTooltipContext{*trace_, g, {}, TimeBase::Trace});
  EXPECT_TRUE(text.contains(QStringLiteral("<br>%1%<br>").arg(sms->values()[10]))) << text.toStdString();
}

TEST_F(MetricRows, MemoryRowShowsThePeakAndAClickSelectsTheAllocation) {
  const MemoryUsage& usage = memoryUsage(*trace_);
  std::vector<int> memoryRows = rowsOfKind(layout(), RowKind::Memory);
  ASSERT_EQ(memoryRows.size(), 1u);
  const TimelineRow& row = layout().row(memoryRows.front());
  EXPECT_EQ(row.label, QStringLiteral("Memory usage"));
  const ProcessMemory& process = usage.processes[row.memoryProcess];
  // Two 128 MiB device buffers; the pinned host buffer is not device memory.
  EXPECT_EQ(process.peak, int64_t{256} << 20);
  TimelineGeometry whole;
  whole.area = canvas_->eventArea();
  whole.viewStart = trace_->startTime();
  whole.viewEnd = trace_->endTime();
  MemoryRowKind kind;
  kind.onTraceChanged(trace_.get());
  EXPECT_TRUE(kind.detail(row, whole).startsWith(QStringLiteral("peak 256.00 MiB")))
      << kind.detail(row, whole).toStdString();

  // Zoom onto the first allocation and click just right of its step.
  TimeNs at = process.time.front();
  session_.setViewRange(at - 1000000, at + 1000000);  // 2 us a pixel
  scrollTo(memoryRows.front());
  QImage image = canvas_->grab().toImage();
  int top = topOf(memoryRows.front());
  int xStep = canvas_->eventArea().left() + kArea / 2;
  // Before the step nothing is allocated; after it the fill rises.
  EXPECT_EQ(image.pixelColor(xStep - 20, top + row.height - 8), image.pixelColor(xStep - 20, top + 3));
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(xStep + 10, top + row.height / 2));
  ASSERT_TRUE(session_.selectedMemoryEvent().has_value());
  EXPECT_EQ(*session_.selectedMemoryEvent(), process.event.front());
  EXPECT_FALSE(session_.selection().has_value());
  EXPECT_EQ(details_.details().kind, "Device memory allocation");
  EXPECT_EQ(details_.shownValue(QStringLiteral("Operation")), QStringLiteral("Allocation"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("Size")), QStringLiteral("128.00 MiB (134,217,728 B)"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("Memory kind")), QStringLiteral("Device"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("Allocated after it")), QStringLiteral("128.00 MiB"));
  EXPECT_TRUE(details_.shownValue(QStringLiteral("Address")).startsWith(QStringLiteral("0x")));
  const MemoryUsageEvent& event = usage.events[process.event.front()];
  if (event.correlationId > 0) {
    EXPECT_TRUE(details_.shownValue(QStringLiteral("CUDA API call")).startsWith(QStringLiteral("cudaMalloc")))
        << details_.shownValue(QStringLiteral("CUDA API call")).toStdString();
    EXPECT_TRUE(details_.details().launchingCall.has_value());
  }
  // Selecting an event drops it.
  session_.select(std::nullopt);
  EXPECT_FALSE(session_.selectedMemoryEvent().has_value());
}

}  // namespace
}  // namespace gpuscope::ui
