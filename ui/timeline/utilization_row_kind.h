#pragma once
// UtilizationRowKind: a device's busy fraction per pixel column, as a filled outline, with the busy
// share of the view after its label and the busy share under the pointer as its tooltip; a point in it
// hits the row and nothing smaller.
#include <optional>
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
  // The device's busy intervals, merged on first use rather than when the trace arrives: the first paint
  // comes after the kernel table's worker has started, so at 10M events the two merges share the cores
  // instead of the GUI thread's 0.1 s preceding the worker's. Null past the trace's devices.
  const DeviceUtilization* utilizationOf(uint32_t deviceIndex) const;

  const Trace* trace_ = nullptr;
  mutable std::vector<std::optional<DeviceUtilization>> utilization_;  // by device index, once merged
  std::vector<float> busy_;                                            // reused per row
};

}  // namespace gpuscope::ui
