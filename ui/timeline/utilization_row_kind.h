#pragma once
// UtilizationRowKind: a device's busy fraction per pixel column, as a filled outline, with the busy
// share of the view after its label and the busy share under the pointer as its tooltip; a point in it
// hits the row and nothing smaller.
#include <vector>

#include "core/query/utilization.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

class UtilizationRowKind : public TimelineRowKind {
 public:
  static constexpr int kHeight = 30;

  bool isHeader() const override { return false; }
  int height(const Trace& /*trace*/, const TimelineRow& /*row*/) const override { return kHeight; }
  bool boldLabel() const override { return false; }
  QString detail(const TimelineRow& row, const TimelineGeometry& geometry) const override;
  TimelineHit hitTest(const Trace& /*trace*/, const TimelineRow& /*row*/, const TimelineGeometry& /*geometry*/,
                      QPoint /*pos*/, int /*yInRow*/) const override {
    return {};
  }
  QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                  const RowTooltipContext& context) const override;
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
  void onTraceChanged(const Trace* trace) override;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;

 private:
  std::vector<DeviceUtilization> utilization_;  // by device index
  std::vector<float> busy_;                     // reused per row
};

}  // namespace gpuscope::ui
