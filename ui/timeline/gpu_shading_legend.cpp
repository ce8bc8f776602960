#include "ui/timeline/gpu_shading_legend.h"

#include <QPainter>
#include <algorithm>

#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {
namespace {

constexpr int kSwatch = 12;   // pixels, square
constexpr int kGap = 6;       // between a swatch and its words
constexpr int kSpacing = 18;  // between entries
constexpr GpuShadeSpan::Kind kKinds[] = {GpuShadeSpan::Kind::Idle, GpuShadeSpan::Kind::LowUse};

QString title() { return QObject::tr("GPU shading from the analysis:"); }

}  // namespace

GpuShadingLegend::GpuShadingLegend(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  setToolTip(QStringLiteral("<b>%1</b> %2<br><b>%3</b> %4")
                 .arg(gpuShadeName(GpuShadeSpan::Kind::Idle).toHtmlEscaped(),
                      gpuShadeReason(GpuShadeSpan::Kind::Idle).toHtmlEscaped(),
                      gpuShadeName(GpuShadeSpan::Kind::LowUse).toHtmlEscaped(),
                      gpuShadeReason(GpuShadeSpan::Kind::LowUse).toHtmlEscaped()));
}

QSize GpuShadingLegend::sizeHint() const {
  int right = entryLeft(GpuShadeSpan::Kind::LowUse) + kSwatch + kGap +
              fontMetrics().horizontalAdvance(gpuShadeName(GpuShadeSpan::Kind::LowUse));
  return {right + 8, fontMetrics().height() + 8};
}

QString GpuShadingLegend::text() const {
  return title() + QLatin1Char(' ') + gpuShadeName(GpuShadeSpan::Kind::Idle) + QStringLiteral(", ") +
         gpuShadeName(GpuShadeSpan::Kind::LowUse);
}

// Entries start under the event area, after the title in the label column's width.
int GpuShadingLegend::entryLeft(GpuShadeSpan::Kind kind) const {
  int left = std::max(TimelineCanvas::kLabelWidth, 8 + fontMetrics().horizontalAdvance(title()) + kSpacing);
  if (kind == GpuShadeSpan::Kind::Idle) return left;
  return left + kSwatch + kGap + fontMetrics().horizontalAdvance(gpuShadeName(GpuShadeSpan::Kind::Idle)) + kSpacing;
}

QRect GpuShadingLegend::swatchRect(GpuShadeSpan::Kind kind) const {
  return {entryLeft(kind), (height() - kSwatch) / 2, kSwatch, kSwatch};
}

void GpuShadingLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), timeline_colors::kLabelColumn);
  p.setPen(timeline_colors::kGrid.darker(115));
  p.drawLine(0, 0, width(), 0);
  p.setPen(timeline_colors::kLabelText);
  QRect line = rect().adjusted(8, 0, 0, 0);
  p.drawText(line, Qt::AlignVCenter | Qt::AlignLeft, title());
  for (GpuShadeSpan::Kind kind : kKinds) {
    // The swatch is the shade over the timeline's background, as it looks on a row.
    QRect swatch = swatchRect(kind);
    p.fillRect(swatch, timeline_colors::kBackground);
    p.fillRect(swatch, gpuShadeColor(kind));
    p.setPen(timeline_colors::kGrid.darker(140));
    p.drawRect(swatch.adjusted(0, 0, -1, -1));
    p.setPen(timeline_colors::kLabelText);
    QRect words(swatch.right() + 1 + kGap, 0, width(), height());
    p.drawText(words, Qt::AlignVCenter | Qt::AlignLeft, gpuShadeName(kind));
  }
}

}  // namespace gpuscope::ui
