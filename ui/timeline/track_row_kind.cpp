#include "ui/timeline/track_row_kind.h"

#include <QFontMetrics>
#include <cmath>
#include <vector>

#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_pixels.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

constexpr int kMinTextWidth = 28;  // a bar narrower than this gets no name

}  // namespace

struct TrackRowKind::Metrics {
  explicit Metrics(const QFont& font)
      : fm(font),
        barHeight(kLaneHeight - 2),
        baseline((barHeight + fm.ascent() - fm.descent()) / 2),
        digitWidth(fm.horizontalAdvance(QLatin1Char('0'))),
        eventsSuffix(QStringLiteral(" events")),
        suffixWidth(fm.horizontalAdvance(eventsSuffix)),
        busyWidth(fm.horizontalAdvance(QStringLiteral(", 100% busy"))),
        textTop((barHeight - fm.height()) / 2) {}
  QFontMetrics fm;
  int barHeight;
  int baseline;
  int digitWidth;  // counts are digits, and digits share one advance: measure once, not per block
  QString eventsSuffix;
  int suffixWidth;
  int busyWidth;  // the widest busy share: whether one fits is decided without measuring it per block
  int textTop;
};

int TrackRowKind::height(const Trace& trace, const TimelineRow& row) const {
  int lanes = std::max<int>(1, static_cast<int>(trace.track(row.track).lanes.size()));
  return lanes * kLaneHeight + 2 * kPadding;
}

TimelineHit TrackRowKind::hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& g, QPoint pos,
                                  int yInRow) const {
  TimelineHit hit;
  const Track& track = trace.track(row.track);
  int inLanes = yInRow - kPadding;
  if (inLanes < 0) return hit;
  auto lane = static_cast<uint32_t>(inLanes / kLaneHeight);
  if (lane >= track.lanes.size()) return hit;
  hit.track = row.track;
  hit.lane = lane;
  std::vector<DrawItem> items;
  buildDrawList(track.lanes[lane], g.drawView(), items);
  // The item under the pointer, or failing that the nearest within two pixels.
  double best = 3.0;
  for (const DrawItem& item : items) {
    auto [left, right] =
        pixelSpan(clampToArea(g.xForTime(item.start), g.area), clampToArea(g.xForTime(item.end), g.area));
    double x = pos.x() + 0.5;
    double distance = x < left ? left - x : (x > right ? x - right : 0.0);
    if (distance < best) {
      best = distance;
      hit.item = item;
      if (distance == 0.0) break;
    }
  }
  return hit;
}

QString TrackRowKind::tooltip(const TimelineRow& /*row*/, const TimelineHit& hit, double /*x*/,
                              const RowTooltipContext& context) const {
  if (!hit.item) return {};
  return itemTooltip(context.trace, hit, context.names, context.timeBase);
}

int64_t TrackRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  const Track& track = trace.track(row.track);
  return track.isGpu() ? static_cast<int64_t>(track.deviceId) : kNoGpu;
}

void TrackRowKind::onTraceChanged(const Trace* /*trace*/) { density_.clear(); }

void TrackRowKind::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  const Track& track = context.trace.track(row.track);
  const TimelineGeometry& g = context.geometry;
  const QRect& area = g.area;
  const Metrics m(context.font);
  const DrawView view = g.drawView();
  const QColor fold = foldColor(track.kind);
  for (size_t laneIndex = 0; laneIndex < track.lanes.size(); ++laneIndex) {
    int y = top + laneTop(static_cast<uint32_t>(laneIndex)) + 1;
    if (y > area.bottom() || y + m.barHeight < area.top()) continue;
    const Lane& lane = track.lanes[laneIndex];
    buildDrawList(lane, view, context.items);
    context.stats.items += context.items.size();
    for (const DrawItem& item : context.items) {
      double x0 = clampToArea(g.xForTime(item.start), area);
      double x1 = clampToArea(g.xForTime(item.end), area);
      auto [left, right] = pixelSpan(x0, x1);
      QRect bar(left, y, right - left, m.barHeight);
      if (item.isFold()) {
        paintFold(p, lane, item, bar, fold, m, context);
      } else {
        uint32_t style = lane.style.empty() ? 0 : lane.style[item.first];
        QColor fill = eventColor(track.kind, context.names.colorKey(lane.name[item.first]), style);
        paintBar(p, lane, fill, item, bar, m, context);
      }
    }
  }
}

void TrackRowKind::paintFold(QPainter& p, const Lane& lane, const DrawItem& item, QRect bar, const QColor& fold,
                             const Metrics& m, RowPaintContext& context) {
  const QRect& area = context.geometry.area;
  int left = bar.left();
  int right = bar.left() + bar.width();
  ++context.stats.folds;
  const double busy = density_.paint(p, lane, context.geometry, bar, fold);
  int visibleWidth = std::min(right, area.right() + 1) - std::max(left, area.left());
  int digits = 1;
  for (uint32_t c = item.count; c >= 10; c /= 10) ++digits;
  int countWidth = digits * m.digitWidth;
  if (visibleWidth < countWidth + 6) return;
  // "1692 events, 15% busy" where it fits, then "1692 events", then the count alone.
  bool spelled = visibleWidth >= countWidth + m.suffixWidth + 8;
  bool withBusy = visibleWidth >= countWidth + m.suffixWidth + m.busyWidth + 8;
  QString text = QString::number(item.count);
  if (spelled) text += m.eventsSuffix;
  int busyWidth = 0;
  if (withBusy) {
    const QString busyText = busy > 0 && busy < 0.005 ? QStringLiteral(", <1% busy")
                                                      : QStringLiteral(", %1% busy").arg(std::lround(busy * 100));
    busyWidth = m.fm.horizontalAdvance(busyText);
    text += busyText;
  }
  int textWidth = countWidth + (spelled ? m.suffixWidth : 0) + busyWidth;
  int textX = std::max(left, area.left()) + (visibleWidth - textWidth) / 2;
  // Mostly busy runs carry their text on the fill, sparse ones on the faint wash above the columns.
  p.setPen(busy > 0.5 ? textColorOn(fold) : timeline_colors::kLabelText);
  p.drawText(QPoint(textX, bar.top() + m.baseline), text);
  ++context.stats.labels;
}

void TrackRowKind::paintBar(QPainter& p, const Lane& lane, const QColor& fill, const DrawItem& item, QRect bar,
                            const Metrics& m, RowPaintContext& context) const {
  const QRect& area = context.geometry.area;
  int left = bar.left();
  int right = bar.left() + bar.width();
  int y = bar.top();
  p.fillRect(bar, fill);
  // A darker leading edge keeps back-to-back bars of one colour apart.
  if (bar.width() >= 4) p.fillRect(QRect(left, y, 1, m.barHeight), fill.darker(135));
  int textLeft = std::max(left, area.left()) + 3;
  int textRight = std::min(right, area.right() + 1) - 3;
  if (textRight - textLeft < kMinTextWidth - 6) return;
  const TimelineNameCache::NameText& name = context.names.nameText(lane.name[item.first], m.fm, context.font);
  p.setPen(textColorOn(fill));
  if (name.width <= textRight - textLeft) {
    p.drawStaticText(QPoint(textLeft, y + m.textTop), name.text);
    ++context.stats.labels;
    return;
  }
  QString text =
      m.fm.elidedText(context.names.displayName(lane.name[item.first]), Qt::ElideRight, textRight - textLeft);
  if (text.size() > 1) {
    p.drawText(QPoint(textLeft, y + m.baseline), text);
    ++context.stats.labels;
  }
}

}  // namespace gpuscope::ui
