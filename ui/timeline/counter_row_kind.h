#pragma once
// CounterRowKind: one GPU hardware metric of one GPU (core/metrics' MetricSeries) over time, as Nsight Systems
// draws its GPU Metrics rows: a filled area chart, each pixel column the samples under it binned (binSeries, in
// time proportional to the pixels, however many samples the series holds), the band from their minimum to their
// maximum lighter and their mean filled below a line. Percent rows scale 0..100; clocks and averages scale to the
// series' own maximum. The mean in view follows the label; the tooltip gives the value under the pointer.
#include <QColor>
#include <QRectF>
#include <vector>

#include "core/metrics/gpu_metrics.h"
#include "core/metrics/metric_series.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

// What one frame of a counter row needs besides the series: where it goes and how it scales.
struct CounterPaint {
  QRectF rect;            // the row's chart area (full width of the event area, the row's height less margins)
  TimeNs viewStart = 0;   // the time at rect.left()
  double nsPerPixel = 1;  // of the view
  TimeNs period = 0;      // the series' sampling period: a sample covers (timestamp - period, timestamp]
  double scaleMax = 100;  // the stored value drawn at the top of the chart
  QColor color{0x3b, 0x6f, 0xc4};
};

// The pixel columns of one frame: each column's samples, or, zoomed in past the sampling period, the sample
// whose interval covers the column (count 1). Count 0 where no sample does.
void counterColumns(const MetricSeries& series, const CounterPaint& how, size_t pixels, std::vector<SeriesStats>& out);

class CounterRowKind : public TimelineRowKind {
 public:
  static constexpr int kHeight = 24;

  bool isHeader() const override { return false; }
  int height(const Trace& /*trace*/, const TimelineRow& /*row*/) const override { return kHeight; }
  bool boldLabel() const override { return false; }
  QString detail(const TimelineRow& row, const TimelineGeometry& geometry) const override;
  TimelineHit hitTest(const Trace& /*trace*/, const TimelineRow& /*row*/, const TimelineGeometry& /*geometry*/,
                      QPoint /*pos*/, int /*yInRow*/) const override {
    return {};
  }
  QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                  const RowTooltipContext& context) const override;
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
  void onTraceChanged(const Trace* trace) override;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;

  // Paints SERIES as HOW says, with SCRATCH for its columns: the whole of a counter row's drawing, which the
  // timeline benchmark times on its own at 10M samples.
  static void paintSeries(QPainter& p, const MetricSeries& series, const CounterPaint& how,
                          std::vector<SeriesStats>& scratch);
  // The stored value a row of SERIES draws at its top: 100 for a percentage, else the series' maximum.
  static double scaleOf(const MetricSeries& series);

 private:
  // The row's GPU and series, or nulls where the trace has none (a row of another trace).
  const GpuMetricDevice* deviceOf(const TimelineRow& row) const;
  const MetricSeries* seriesOf(const TimelineRow& row) const;

  const Trace* trace_ = nullptr;
  std::vector<SeriesStats> columns_;  // reused per row
};

}  // namespace gpuscope::ui
