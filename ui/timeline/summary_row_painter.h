#pragma once
// SummaryRowPainter: a collapsed header (process, thread, device, stream) shows the outermost
// events of every track below it squeezed into one strip.
#include "ui/timeline/timeline_row_painter.h"

namespace gpuscope::ui {

class SummaryRowPainter : public TimelineRowPainter {
 public:
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;
};

}  // namespace gpuscope::ui
