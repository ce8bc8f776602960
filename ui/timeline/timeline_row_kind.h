#pragma once
// TimelineRowKind: everything one kind of timeline row decides, in one class, in the manner of Tracy's
// timeline items: whether it is a collapsible header, its height, its label weight, what a point in it
// hits, which GPU it shows (for the idle and low-use shading), its painting, the text after its label
// and its tooltip. Every fact is pure virtual: nothing falls back to another kind's behaviour.
//
// Adding a kind of row (thread states, CPU samples, a rank header):
//   1. add its enumerator to RowKind (timeline_row.h);
//   2. write its class in its own file, deriving from TimelineRowKind (or HeaderRowKind for a
//      collapsible header); until every fact below is defined the class is abstract, and step 3
//      does not compile;
//   3. add the class to TimelineRowKinds::kinds_ (timeline_row_kinds.h) and a case for the
//      enumerator to TimelineRowKinds::of(); a missing case is an error (-Wswitch-enum is made an
//      error there, whatever the build's flags);
//   4. make TimelineLayout::build add rows of the kind where they belong in the tree.
#include <QFont>
#include <QPainter>
#include <QPoint>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/trace.h"
#include "core/query/draw_list.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_name_cache.h"
#include "ui/timeline/timeline_row.h"

namespace gpuscope::ui {

// What the canvas painted in its last frame, for tests and the timeline benchmark.
struct TimelineFrameStats {
  int rows = 0;       // rows painted
  size_t items = 0;   // bars and folded blocks
  size_t folds = 0;   // of which folded blocks
  size_t labels = 0;  // names drawn inside bars
};

// Everything a row kind reads to paint a row for one frame, and the counters it adds to.
struct RowPaintContext {
  const Trace& trace;
  const TimelineGeometry& geometry;
  const QFont& font;
  const TimelineNameCache& names;
  TimelineFrameStats& stats;
  std::vector<DrawItem>& items;  // scratch, reused from row to row
};

// Everything a row kind reads to say what is under the pointer.
struct RowTooltipContext {
  const Trace& trace;
  const TimelineGeometry& geometry;
  const TimelineNameCache& names;
  TimeBase timeBase;
};

// What is under a point of the timeline: the row, and on a track row the lane and the bar or folded
// block (or the nearest one within two pixels); on a thread-state row, the CPU sample whose tick is there.
struct TimelineHit {
  int row = -1;
  uint32_t track = TimelineRow::kNoTrack;
  uint32_t lane = 0;
  std::optional<DrawItem> item;
  std::optional<uint32_t> sample;       // index into HostActivity::samples()
  std::optional<uint32_t> memoryEvent;  // on a memory row: index into MemoryUsage::events of the step there
};

class TimelineRowKind {
 public:
  static constexpr int64_t kNoGpu = -1;

  virtual ~TimelineRowKind() = default;

  // Layout: a header folds the rows below it and shows a summary strip while collapsed.
  virtual bool isHeader() const = 0;
  virtual int height(const Trace& trace, const TimelineRow& row) const = 0;
  virtual bool boldLabel() const = 0;
  // The text after the row's label, greyer.
  virtual QString detail(const TimelineRow& row, const TimelineGeometry& geometry) const = 0;

  // Input. POS is in canvas coordinates inside the event area, Y_IN_ROW from the row's top edge;
  // the answer's row is left for the caller to fill in.
  virtual TimelineHit hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& geometry, QPoint pos,
                              int yInRow) const = 0;
  // The tooltip for HIT at X in the event area (rich text), or empty for none.
  virtual QString tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                          const RowTooltipContext& context) const = 0;

  // Shading: the TARGET_INFO_GPU id of the device the row shows, or kNoGpu for a CPU row.
  virtual int64_t gpuDevice(const Trace& trace, const TimelineRow& row) const = 0;

  // Painting. A new trace (or none): drop what was derived from the last one.
  virtual void onTraceChanged(const Trace* trace) = 0;
  // Paints ROW, whose top edge is at TOP in canvas coordinates, clipped to the event area.
  virtual void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) = 0;
};

}  // namespace gpuscope::ui
