#pragma once
// TrackRowKind: a track's lanes of bars, with folded blocks where events are too narrow to draw one
// by one (painted by their density) and names inside the bars that have room for them; a point hits
// the bar or block under it in its lane.
#include "ui/timeline/fold_density.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

class TrackRowKind : public TimelineRowKind {
 public:
  static constexpr int kLaneHeight = 20;
  static constexpr int kPadding = 2;  // above the first lane and below the last

  // The top of lane LANE, from the row's top edge.
  static int laneTop(uint32_t lane) { return kPadding + static_cast<int>(lane) * kLaneHeight; }

  bool isHeader() const override { return false; }
  int height(const Trace& trace, const TimelineRow& row) const override;
  bool boldLabel() const override { return false; }
  QString detail(const TimelineRow& row, const TimelineGeometry& /*geometry*/) const override { return row.detail; }
  TimelineHit hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& geometry, QPoint pos,
                      int yInRow) const override;
  QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                  const RowTooltipContext& context) const override;
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
  void onTraceChanged(const Trace* trace) override;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;

 private:
  struct Metrics;  // the bar font's measures, taken once per track
  void paintFold(QPainter& p, const Lane& lane, const DrawItem& item, QRect bar, const QColor& fold, const Metrics& m,
                 RowPaintContext& context);
  void paintBar(QPainter& p, const Lane& lane, const QColor& fill, const DrawItem& item, QRect bar, const Metrics& m,
                RowPaintContext& context) const;

  FoldDensity density_;
};

}  // namespace gpuscope::ui
