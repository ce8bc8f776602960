#pragma once
// UtilizationRowPainter: a device's busy fraction per pixel column, as a filled outline, with the
// busy share of the view after its label and the busy share under the pointer as its tooltip.
#include <vector>

#include "core/query/utilization.h"
#include "ui/timeline/timeline_row_painter.h"

namespace gpuscope::ui {

class UtilizationRowPainter : public TimelineRowPainter {
 public:
  void onTraceChanged(const Trace* trace) override;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;
  QString detail(const TimelineRow& row, const TimelineGeometry& geometry) const override;
  QString tooltip(const TimelineRow& row, double x, const TimelineGeometry& geometry) const override;

 private:
  std::vector<DeviceUtilization> utilization_;  // by device index
  std::vector<float> busy_;                     // reused per row
};

}  // namespace gpuscope::ui
