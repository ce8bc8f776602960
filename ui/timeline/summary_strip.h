#pragma once
// SummaryStrip: what a collapsed header shows, the outermost events of every track below it squeezed
// into one strip, folded runs by their density. The header row kinds share one.
#include "ui/timeline/fold_density.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

class SummaryStrip {
 public:
  // A new trace (or none): the lanes the fold densities were built from are gone.
  void clear() { density_.clear(); }
  // Paints the strip of ROW, a header whose top edge is at TOP, when it is collapsed; nothing when open.
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context);

 private:
  FoldDensity density_;
};

}  // namespace gpuscope::ui
