#pragma once
// TrackRowPainter: a track's lanes of bars, with folded blocks where events are too narrow to draw
// one by one (painted by their density), and names inside the bars that have room for them.
#include "ui/timeline/fold_density.h"
#include "ui/timeline/timeline_row_painter.h"

namespace gpuscope::ui {

class TrackRowPainter : public TimelineRowPainter {
 public:
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
