#include "ui/timeline/counter_row_kind.h"

#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/metrics/gpu_metric_names.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

namespace colors = timeline_colors;

QString valueText(std::string_view metric, double stored) {
  double shown = gpu_metric::displayValue(metric, stored);
  int decimals = std::abs(shown) >= 100 || shown == std::floor(shown) ? 0 : (std::abs(shown) >= 10 ? 1 : 2);
  QString number = QString::number(shown, 'f', decimals);
  if (gpu_metric::isPercent(metric)) return number + QLatin1Char('%');
  std::string_view unit = gpu_metric::unitOf(metric);
  if (gpu_metric::isClock(metric)) return number + QStringLiteral(" MHz");
  return unit.empty() ? number
                      : number + QLatin1Char(' ') + QString::fromUtf8(unit.data(), static_cast<int>(unit.size()));
}

}  // namespace

void counterColumns(const MetricSeries& series, const CounterPaint& how, size_t pixels, std::vector<SeriesStats>& out) {
  const TimeNs width = std::max<TimeNs>(1, static_cast<TimeNs>(std::llround(how.nsPerPixel)));
  out = binSeries(series, how.viewStart, width, pixels);
  if (how.period <= 0 || series.size() == 0) return;
  // Zoomed in past the sampling period most columns hold no timestamp: each shows the sample whose interval
  // [timestamp, timestamp + period) covers its start (a timestamp is its interval's start, core/metrics).
  auto times = series.times();
  auto values = series.values();
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].count != 0) continue;
    TimeNs start = how.viewStart + static_cast<TimeNs>(i) * width;
    auto after = std::upper_bound(times.begin(), times.end(), start);
    if (after == times.begin()) continue;
    size_t covering = static_cast<size_t>(after - times.begin()) - 1;
    if (times[covering] + how.period <= start) continue;
    int64_t v = values[covering];
    out[i] = SeriesStats{1, v, v, v};
  }
}

double CounterRowKind::scaleOf(const MetricSeries& series) {
  if (gpu_metric::isPercent(series.name())) return 100.0;
  SeriesStats all = series.statsOf(0, series.size());
  return all.count == 0 || all.max <= 0 ? 1.0 : static_cast<double>(all.max);
}

void CounterRowKind::paintSeries(QPainter& p, const MetricSeries& series, const CounterPaint& how,
                                 std::vector<SeriesStats>& scratch) {
  const auto pixels = static_cast<size_t>(std::max(0.0, std::ceil(how.rect.width())));
  counterColumns(series, how, pixels, scratch);
  const double bottom = how.rect.bottom();
  const double full = how.rect.height();
  auto yOf = [&](double stored) { return bottom - full * std::clamp(stored / how.scaleMax, 0.0, 1.0); };

  QColor band = how.color;
  band.setAlpha(70);
  QColor area = how.color;
  area.setAlpha(150);
  QPolygonF bandShape, areaShape, line;
  auto flush = [&] {
    if (areaShape.size() > 1) {
      p.setPen(Qt::NoPen);
      p.setBrush(band);
      p.drawPolygon(bandShape);
      p.setBrush(area);
      p.drawPolygon(areaShape);
      p.setBrush(Qt::NoBrush);
      p.setPen(QPen(how.color.darker(130), 1.0));
      p.drawPolyline(line);
    }
    bandShape.clear();
    areaShape.clear();
    line.clear();
  };
  std::vector<QPointF> lows;  // the band's lower edge, walked back when a run ends
  size_t runStart = 0;
  auto closeRun = [&](size_t end) {
    if (areaShape.isEmpty()) return;
    double right = how.rect.left() + static_cast<double>(end);
    areaShape << QPointF(right, bottom) << QPointF(how.rect.left() + static_cast<double>(runStart), bottom);
    for (auto it = lows.rbegin(); it != lows.rend(); ++it) bandShape << *it;
    lows.clear();
    flush();
  };
  for (size_t i = 0; i < scratch.size(); ++i) {
    const SeriesStats& s = scratch[i];
    if (s.count == 0) {
      closeRun(i);
      continue;
    }
    if (areaShape.isEmpty()) runStart = i;
    double x0 = how.rect.left() + static_cast<double>(i);
    double x1 = x0 + 1;
    double mean = yOf(s.mean());
    double hi = yOf(static_cast<double>(s.max));
    double lo = yOf(static_cast<double>(s.min));
    // A non-zero mean shows as at least a sliver, so a short burst stays visible zoomed out.
    if (s.max > 0) mean = std::min(mean, bottom - 1.0);
    areaShape << QPointF(x0, mean) << QPointF(x1, mean);
    line << QPointF(x0, mean) << QPointF(x1, mean);
    bandShape << QPointF(x0, hi) << QPointF(x1, hi);
    lows.emplace_back(x0, lo);
    lows.emplace_back(x1, lo);
  }
  closeRun(scratch.size());
}

void CounterRowKind::onTraceChanged(const Trace* trace) { trace_ = trace; }

const GpuMetricDevice* CounterRowKind::deviceOf(const TimelineRow& row) const {
  if (!trace_) return nullptr;
  const GpuMetrics& metrics = gpuMetrics(*trace_);
  return row.metricDevice < metrics.devices.size() ? &metrics.devices[row.metricDevice] : nullptr;
}

const MetricSeries* CounterRowKind::seriesOf(const TimelineRow& row) const {
  const GpuMetricDevice* device = deviceOf(row);
  return device && row.series < device->metrics.size() ? &device->metrics[row.series] : nullptr;
}

int64_t CounterRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  return row.deviceIndex < trace.devices().size() ? static_cast<int64_t>(trace.devices()[row.deviceIndex].id) : kNoGpu;
}

void CounterRowKind::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  const MetricSeries* series = seriesOf(row);
  if (!series) return;
  const TimelineGeometry& g = context.geometry;
  CounterPaint how;
  how.rect = QRectF(g.area.left(), top + 2, g.area.width(), row.height - 4);
  how.viewStart = g.viewStart;
  how.nsPerPixel = g.nsPerPixel();
  how.period = deviceOf(row)->period;
  how.scaleMax = scaleOf(*series);
  if (gpu_metric::isClock(series->name())) how.color = QColor(0x8a, 0x5c, 0xb8);
  paintSeries(p, *series, how, columns_);
  p.setPen(colors::kGrid);
  p.drawLine(QLineF(g.area.left(), top + row.height - 0.5, g.area.right() + 1, top + row.height - 0.5));
}

QString CounterRowKind::detail(const TimelineRow& row, const TimelineGeometry& geometry) const {
  const MetricSeries* series = seriesOf(row);
  if (!series) return row.detail;
  SeriesStats view = series->statsWithin(geometry.viewStart, geometry.viewEnd);
  if (view.count == 0) return row.detail;
  return QStringLiteral("avg %1").arg(valueText(series->name(), view.mean()));
}

QString CounterRowKind::tooltip(const TimelineRow& row, const TimelineHit& /*hit*/, double x,
                                const RowTooltipContext& context) const {
  const MetricSeries* series = seriesOf(row);
  if (!series) return {};
  const TimelineGeometry& g = context.geometry;
  CounterPaint how;
  how.viewStart = g.timeAtX(std::floor(x));
  how.nsPerPixel = g.nsPerPixel();
  how.period = deviceOf(row)->period;
  std::vector<SeriesStats> column;
  counterColumns(*series, how, 1, column);
  const std::string& name = series->name();
  QString label =
      QString::fromUtf8(gpu_metric::labelOf(name).data(), static_cast<int>(gpu_metric::labelOf(name).size()));
  QString text = QStringLiteral("<b>%1</b> (GPU %2)<br>").arg(label.toHtmlEscaped()).arg(deviceOf(row)->deviceId);
  const SeriesStats& s = column.front();
  if (s.count == 0) {
    text += QStringLiteral("no sample here");
  } else if (s.count == 1) {
    text += valueText(name, s.mean());
  } else {
    text += QStringLiteral("mean %1, min %2, max %3 over %4 samples")
                .arg(valueText(name, s.mean()), valueText(name, static_cast<double>(s.min)),
                     valueText(name, static_cast<double>(s.max)))
                .arg(s.count);
  }
  return text + QStringLiteral("<br>at %1").arg(rulerTooltip(context.trace, how.viewStart, context.timeBase));
}

}  // namespace gpuscope::ui
