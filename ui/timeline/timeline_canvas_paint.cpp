// TimelineCanvas, one frame: the row backgrounds and grid, each row as its kind paints it, the
// picked range, the label column and the ruler. The selection is drawn by timeline_canvas_selection.cpp.
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

#include "core/model/trace_summary.h"
#include "ui/text.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {
namespace {

namespace colors = timeline_colors;

constexpr double kMinRulerSpacing = 90;  // pixels between labelled ticks, at least
constexpr int kIndent = 14;

void drawTriangle(QPainter& p, int x, int yMid, bool open, const QColor& color) {
  QPolygonF tri;
  if (open) {
    tri << QPointF(x, yMid - 2.5) << QPointF(x + 8, yMid - 2.5) << QPointF(x + 4, yMid + 2.5);
  } else {
    tri << QPointF(x + 1.5, yMid - 4) << QPointF(x + 6.5, yMid) << QPointF(x + 1.5, yMid + 4);
  }
  p.setPen(Qt::NoPen);
  p.setBrush(color);
  p.drawPolygon(tri);
  p.setBrush(Qt::NoBrush);
}

}  // namespace

RulerScale TimelineCanvas::rulerScale() const {
  double npp = nsPerPixel();
  RulerScale scale = chooseRulerScale(npp, kMinRulerSpacing);
  if (!session_->hasTrace()) return scale;
  // Long labels need more room: widen the spacing to fit the longest.
  QFontMetrics fm(font());
  TimeNs origin = session_->timeOrigin();
  int needed = 0;
  for (const RulerTick& tick : rulerTicks(session_->viewStart() - origin, session_->viewEnd() - origin, scale).ticks)
    needed = std::max(needed, fm.horizontalAdvance(QString::fromStdString(tick.label)) + 24);
  if (needed > kMinRulerSpacing) scale = chooseRulerScale(npp, needed);
  return scale;
}

void TimelineCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), colors::kBackground);
  frame_ = {};
  flowArrows_.clear();
  const Trace* trace = session_->trace().get();
  if (!trace) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("Open a trace to see its timeline."));
    return;
  }
  QRect area = eventArea();
  RulerScale scale = rulerScale();
  paintRowBackgrounds(p, area);
  p.save();
  p.setClipRect(area);
  paintGrid(p, area, scale);
  paintRows(p, geometry());
  paintGpuShading(p, *trace, layout_, kinds_, geometry(), kRulerHeight - scrollY(), gpuShading_);
  paintRange(p, area);
  paintSelection(p, area);
  p.restore();
  paintLabels(p);
  paintRuler(p, scale);
}

void TimelineCanvas::paintRowBackgrounds(QPainter& p, const QRect& area) const {
  const auto& shown = layout_.shown();
  int scroll = scrollY();
  for (size_t k = layout_.firstShownBelow(scroll); k < shown.size(); ++k) {
    int top = kRulerHeight + shown[k].top - scroll;
    if (top >= area.bottom() + 1) break;
    const TimelineRow& row = layout_.row(shown[k].row);
    QRect band(area.left(), top, area.width(), shown[k].height);
    if (row.isHeader()) {
      p.fillRect(band, row.collapsed ? colors::kRowAlternate : colors::kHeaderRow);
    } else if (k % 2 == 1) {
      p.fillRect(band, colors::kRowAlternate);
    }
  }
}

void TimelineCanvas::paintGrid(QPainter& p, const QRect& area, const RulerScale& scale) const {
  TimeNs origin = session_->timeOrigin();
  TimeNs first = session_->viewStart() - origin;
  TimeNs tick = (first >= 0 ? first / scale.step : (first - scale.step + 1) / scale.step) * scale.step;
  p.setPen(colors::kGrid);
  for (; origin + tick <= session_->viewEnd(); tick += scale.step) {
    double x = xForTime(origin + tick);
    if (x < area.left()) continue;
    p.drawLine(QLineF(x, area.top(), x, area.bottom() + 1));
  }
}

void TimelineCanvas::paintRows(QPainter& p, const TimelineGeometry& g) {
  const QFont bar = font();
  RowPaintContext context{*session_->trace(), g, bar, names_, frame_, items_};
  const auto& shown = layout_.shown();
  int scroll = scrollY();
  for (size_t k = layout_.firstShownBelow(scroll); k < shown.size(); ++k) {
    int top = kRulerHeight + shown[k].top - scroll;
    if (top >= g.area.bottom() + 1) break;
    const TimelineRow& row = layout_.row(shown[k].row);
    ++frame_.rows;
    kinds_.of(row).paint(p, row, top, context);
  }
}

void TimelineCanvas::paintRange(QPainter& p, const QRect& area) const {
  if (session_->rangeEnd() <= session_->rangeStart()) return;
  double x0 = clampToArea(xForTime(session_->rangeStart()), area);
  double x1 = clampToArea(xForTime(session_->rangeEnd()), area);
  p.fillRect(QRectF(x0, area.top(), std::max(1.0, x1 - x0), area.height()), colors::kRangeFill);
  p.setPen(colors::kRangeEdge);
  p.drawLine(QLineF(x0, area.top(), x0, area.bottom() + 1));
  p.drawLine(QLineF(x1, area.top(), x1, area.bottom() + 1));
}

void TimelineCanvas::paintLabels(QPainter& p) const {
  QRect column(0, kRulerHeight, kLabelWidth, height() - kRulerHeight);
  p.save();
  p.setClipRect(column);
  p.fillRect(column, colors::kLabelColumn);
  QFont normal = font();
  QFont bold = font();
  bold.setBold(true);
  QFontMetrics fmNormal(normal);
  QFontMetrics fmBold(bold);
  QColor detailColor(0x6b, 0x74, 0x80);
  const TimelineGeometry g = geometry();
  const auto& shown = layout_.shown();
  int scroll = scrollY();
  for (size_t k = layout_.firstShownBelow(scroll); k < shown.size(); ++k) {
    int top = kRulerHeight + shown[k].top - scroll;
    if (top > height()) break;
    const TimelineRow& row = layout_.row(shown[k].row);
    int h = shown[k].height;
    if (row.isHeader()) p.fillRect(QRect(0, top, kLabelWidth, h), colors::kHeaderRow.darker(104));
    int x = 6 + row.depth * kIndent;
    int lineY = top + std::min(h, HeaderRowKind::kHeight) / 2;
    if (row.isHeader()) {
      drawTriangle(p, x, lineY, !row.collapsed, colors::kLabelText);
      x += 12;
    }
    const TimelineRowKind& kind = kinds_.of(row);
    bool strong = kind.boldLabel();
    const QFontMetrics& fm = strong ? fmBold : fmNormal;
    p.setFont(strong ? bold : normal);
    p.setPen(colors::kLabelText);
    int room = kLabelWidth - x - 6;
    QString label = fm.elidedText(row.label, Qt::ElideRight, room);
    int baseline = lineY + (fm.ascent() - fm.descent()) / 2;
    p.drawText(QPoint(x, baseline), label);
    x += fm.horizontalAdvance(label) + 6;
    QString detail = kind.detail(row, g);
    if (!detail.isEmpty() && kLabelWidth - x - 6 > 20) {
      p.setFont(normal);
      p.setPen(detailColor);
      p.drawText(QPoint(x, lineY + (fmNormal.ascent() - fmNormal.descent()) / 2),
                 fmNormal.elidedText(detail, Qt::ElideRight, kLabelWidth - x - 6));
    }
    p.setPen(colors::kGrid);
    p.drawLine(0, top + h - 1, kLabelWidth, top + h - 1);
  }
  p.restore();
  p.setPen(colors::kGrid.darker(115));
  p.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, height());
}

void TimelineCanvas::paintRuler(QPainter& p, const RulerScale& scale) const {
  QRect ruler(0, 0, width(), kRulerHeight);
  p.fillRect(ruler, colors::kRuler);
  QFontMetrics fm(font());
  TimeNs origin = session_->timeOrigin();
  TimeNs viewStart = session_->viewStart();
  TimeNs viewEnd = session_->viewEnd();

  const RulerTicks ticks = rulerTicks(viewStart - origin, viewEnd - origin, scale);

  // The corner over the labels: how much time the view shows, and the anchor "+" labels count from.
  p.setPen(colors::kLabelText);
  QRect corner(6, 0, kLabelWidth - 12, kRulerHeight);
  QString span = tr("View: %1").arg(durationText(viewEnd - viewStart));
  if (ticks.anchor == 0) {
    p.drawText(corner, Qt::AlignVCenter | Qt::AlignLeft, span);
  } else {
    p.drawText(corner.adjusted(0, 1, 0, 0), Qt::AlignTop | Qt::AlignLeft, span);
    p.drawText(corner.adjusted(0, 0, 0, -1), Qt::AlignBottom | Qt::AlignLeft,
               tr("Ticks count from %1").arg(QString::fromStdString(formatRulerAnchor(ticks.anchor))));
  }

  p.save();
  p.setClipRect(QRect(kLabelWidth, 0, width() - kLabelWidth, kRulerHeight));
  // The picked range, under the ticks.
  if (session_->rangeEnd() > session_->rangeStart()) {
    QRect area = eventArea();
    double x0 = clampToArea(xForTime(session_->rangeStart()), area);
    double x1 = clampToArea(xForTime(session_->rangeEnd()), area);
    p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), kRulerHeight), colors::kRangeEdge.lighter(160));
  }
  double minorStep = static_cast<double>(scale.step) / scale.minorPerMajor;
  double minorPixels = minorStep / nsPerPixel();
  for (const RulerTick& tick : ticks.ticks) {
    double x = xForTime(origin + tick.time);
    p.setPen(colors::kLabelText);
    p.drawLine(QLineF(x, kRulerHeight - 10, x, kRulerHeight));
    // A label whose tick is left of the area would be cut by the label column: leave it out.
    if (x >= kLabelWidth) p.drawText(QPointF(x + 3, kRulerHeight - 13), QString::fromStdString(tick.label));
    if (minorPixels >= 5) {
      p.setPen(colors::kLabelText.lighter(250));
      for (int m = 1; m < scale.minorPerMajor; ++m) {
        double mx = x + m * minorPixels;
        p.drawLine(QLineF(mx, kRulerHeight - 5, mx, kRulerHeight));
      }
    }
  }
  // The range's length, over the ticks, where it can be read.
  if (session_->rangeEnd() > session_->rangeStart()) {
    QRect area = eventArea();
    double x0 = clampToArea(xForTime(session_->rangeStart()), area);
    double x1 = clampToArea(xForTime(session_->rangeEnd()), area);
    QString length = durationText(session_->rangeEnd() - session_->rangeStart());
    int textWidth = fm.horizontalAdvance(length) + 12;
    double centre = std::clamp((x0 + x1) / 2, area.left() + textWidth / 2.0, area.right() - textWidth / 2.0);
    QRectF box(centre - textWidth / 2.0, 3, textWidth, fm.height() + 2);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(colors::kRangeEdge);
    p.drawRoundedRect(box, 3, 3);
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, length);
  }
  p.restore();
  p.setPen(colors::kGrid.darker(130));
  p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
}

}  // namespace gpuscope::ui
