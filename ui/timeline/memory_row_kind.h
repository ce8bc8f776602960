#pragma once
// MemoryRowKind: the device memory one process held on one GPU over the run (core/metrics' MemoryUsage, from
// each allocation and free), as a step area chart scaled to the GPU's total memory where the trace knows it
// (else to the GPU's peak), with the peak marked and labelled. A point in it hits the step there (the event
// whose allocation or free set the level), and a click selects that event; the tooltip gives the bytes
// allocated at the pointer and the event.
#include <map>
#include <vector>

#include "core/metrics/memory_usage.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

class MemoryRowKind : public TimelineRowKind {
 public:
  static constexpr int kHeight = 40;
  static constexpr double kStepPixels = 3;  // a click this close to a step's edge picks that step

  bool isHeader() const override { return false; }
  int height(const Trace& /*trace*/, const TimelineRow& /*row*/) const override { return kHeight; }
  bool boldLabel() const override { return false; }
  QString detail(const TimelineRow& row, const TimelineGeometry& geometry) const override;
  TimelineHit hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& geometry, QPoint pos,
                      int yInRow) const override;
  QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                  const RowTooltipContext& context) const override;
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
  void onTraceChanged(const Trace* trace) override;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;

  // The bytes drawn at the top of ROW: the GPU's total memory where the trace knows it, else its peak.
  int64_t scaleOf(const Trace& trace, const TimelineRow& row) const;
  // The y of BYTES in a row whose top edge is at TOP.
  static double yOf(int64_t bytes, int64_t scale, int top, int height);

 private:
  const ProcessMemory* processOf(const Trace& trace, const TimelineRow& row) const;

  const Trace* trace_ = nullptr;
  mutable std::map<int, int64_t> devicePeak_;  // by device id, once computed
  std::vector<int64_t> levels_;                // per pixel column, reused per row
};

}  // namespace gpuscope::ui
