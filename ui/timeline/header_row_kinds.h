#pragma once
// The header row kinds: process, thread, device, stream and a GPU's metrics group. A header folds the rows below it
// and, collapsed, shows their summary strip; each kind says how its label weighs and which GPU it shows.
#include "ui/timeline/summary_strip.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

// HeaderRowKind: what every header shares; a point in a header hits the row and nothing smaller.
class HeaderRowKind : public TimelineRowKind {
 public:
  static constexpr int kHeight = 22;

  explicit HeaderRowKind(SummaryStrip& strip) : strip_(strip) {}

  bool isHeader() const final { return true; }
  int height(const Trace& /*trace*/, const TimelineRow& /*row*/) const final { return kHeight; }
  QString detail(const TimelineRow& row, const TimelineGeometry& /*geometry*/) const final { return row.detail; }
  TimelineHit hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& geometry, QPoint pos,
                      int yInRow) const final;
  QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                  const RowTooltipContext& context) const final;
  void onTraceChanged(const Trace* trace) final;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) final;

 private:
  SummaryStrip& strip_;
};

// ProcessRowKind: a process, in bold, above its threads.
class ProcessRowKind : public HeaderRowKind {
 public:
  using HeaderRowKind::HeaderRowKind;
  bool boldLabel() const override { return true; }
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
};

// ThreadRowKind: a thread, above its CUDA API, NVTX and OS runtime tracks.
class ThreadRowKind : public HeaderRowKind {
 public:
  using HeaderRowKind::HeaderRowKind;
  bool boldLabel() const override { return false; }
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
};

// IdleThreadsRowKind: "N idle threads", the threads of a process that did nothing, folded under one row.
class IdleThreadsRowKind : public HeaderRowKind {
 public:
  using HeaderRowKind::HeaderRowKind;
  bool boldLabel() const override { return false; }
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
};

// DeviceRowKind: a GPU, in bold, above its utilization row and its streams; shaded as that GPU.
class DeviceRowKind : public HeaderRowKind {
 public:
  using HeaderRowKind::HeaderRowKind;
  bool boldLabel() const override { return true; }
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
};

// StreamRowKind: a CUDA stream, above its kernel and memory tracks; shaded as the GPU they ran on.
class StreamRowKind : public HeaderRowKind {
 public:
  using HeaderRowKind::HeaderRowKind;
  bool boldLabel() const override { return false; }
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
};

// MetricGroupRowKind: "GPU Metrics" under a GPU, above its counter rows; shaded as that GPU.
class MetricGroupRowKind : public HeaderRowKind {
 public:
  using HeaderRowKind::HeaderRowKind;
  bool boldLabel() const override { return false; }
  int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const override;
};

}  // namespace gpuscope::ui
