#pragma once
// SummaryRowPainter: a collapsed header (process, thread, device, stream) shows the outermost
// events of every track below it squeezed into one strip, folded runs by their density.
#include "ui/timeline/fold_density.h"
#include "ui/timeline/timeline_row_painter.h"

namespace gpuscope::ui {

class SummaryRowPainter : public TimelineRowPainter {
 public:
  void onTraceChanged(const Trace* /*trace*/) override { density_.clear(); }
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;

 private:
  FoldDensity density_;
};

}  // namespace gpuscope::ui
