#pragma once
// ThreadStateRowKind: under a thread, a strip coloured by its scheduling state (running, preempted,
// sleeping, blocked in I/O, off CPU) and below it a tick per CPU sample, from hostActivity(trace).
// Zoomed out, each pixel column shows the share of its time in each state, stacked, and the sample
// ticks become a density; a frame costs a few binary searches per pixel column, not the spans in view.
// The tooltip names the state under the pointer with its start and length, the top frames of the
// nearest sample within a few pixels, and the colours' legend. While the CPU Samples tab highlights a
// function (TraceSession::highlightedFunction), the ticks of the samples whose stacks hold it are drawn
// full height in highlightTickColor() and the others faint.
#include <QColor>
#include <QString>
#include <vector>

#include "core/samples/host_activity.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

class ThreadStateRowKind : public TimelineRowKind {
 public:
  static constexpr int kHeight = 24;
  static constexpr int kStripTop = 2;      // from the row's top
  static constexpr int kStripHeight = 12;  // the states
  static constexpr int kTickTop = 16;      // the sample ticks below them
  static constexpr int kTickHeight = 6;
  static constexpr double kSampleReachPixels = 4;  // how far the tooltip and a click look for a sample
  static constexpr int kSelectedTickWidth = 3;     // the selected sample: a tick in the selection colour
  static constexpr int kTooltipFrames = 8;

  bool isHeader() const override { return false; }
  int height(const Trace& /*trace*/, const TimelineRow& /*row*/) const override { return kHeight; }
  bool boldLabel() const override { return false; }
  QString detail(const TimelineRow& row, const TimelineGeometry& geometry) const override;
  // Below the strip, the sample whose tick is nearest POS within kSampleReachPixels; nothing on the strip.
  TimelineHit hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& geometry, QPoint pos,
                      int yInRow) const override;
  QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                  const RowTooltipContext& context) const override;
  int64_t gpuDevice(const Trace& /*trace*/, const TimelineRow& /*row*/) const override { return kNoGpu; }
  void onTraceChanged(const Trace* trace) override;
  void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) override;

  // The tick of a sample of the highlighted function.
  static QColor highlightTickColor() { return {0xe0, 0x1e, 0x8c}; }

  // The legend: each state's colour and name, as rich text.
  static QString legend();
  // Paints the selected sample SAMPLE of ROW (top edge at TOP) as a taller tick in the selection colour.
  static void paintSelectedSample(QPainter& p, const Trace& trace, const TimelineRow& row, uint32_t sample, int top,
                                  const TimelineGeometry& g);

 private:
  const ThreadActivityColumns* columnsOf(const TimelineRow& row) const;
  void paintStates(QPainter& p, const ThreadActivityColumns& thread, int top, const TimelineGeometry& g);
  void paintTicks(QPainter& p, const ThreadActivityColumns& thread, int top, const TimelineGeometry& g);
  void paintHighlightedTicks(QPainter& p, const ThreadActivityColumns& thread, int top, const TimelineGeometry& g);
  // Which of TRACE's samples have LABEL's function in their stacks, worked out once per label.
  const std::vector<bool>& samplesOf(const Trace& trace, const QString& label);

  const Trace* trace_ = nullptr;
  std::vector<ActivityTimes> times_;  // reused per row
  std::vector<uint32_t> counts_;      // reused per row
  QString highlighted_;               // the label highlightedSamples_ was worked out for
  const Trace* highlightedTrace_ = nullptr;
  std::vector<bool> highlightedSamples_;  // by index into HostActivity::samples()
};

}  // namespace gpuscope::ui
