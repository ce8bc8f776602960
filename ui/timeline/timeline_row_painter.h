#pragma once
// TimelineRowPainter: one kind of timeline row (a track's lanes, a device's utilization, a
// collapsed header's summary), in the manner of Tracy's timeline items. The canvas owns one painter
// per kind and asks it to paint each shown row of that kind, for the text after its label and for
// its tooltip; a new kind of row is a new painter in its own file.
#include <QFont>
#include <QPainter>
#include <QString>
#include <vector>

#include "core/model/trace.h"
#include "core/query/draw_list.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_name_cache.h"

namespace gpuscope::ui {

// What the canvas painted in its last frame, for tests and the timeline benchmark.
struct TimelineFrameStats {
  int rows = 0;       // rows painted
  size_t items = 0;   // bars and folded blocks
  size_t folds = 0;   // of which folded blocks
  size_t labels = 0;  // names drawn inside bars
};

// Everything a row painter reads for one frame, and the counters it adds to.
struct RowPaintContext {
  const Trace& trace;
  const TimelineGeometry& geometry;
  const QFont& font;
  const TimelineNameCache& names;
  TimelineFrameStats& stats;
  std::vector<DrawItem>& items;  // scratch, reused from row to row
};

class TimelineRowPainter {
 public:
  virtual ~TimelineRowPainter() = default;
  // A new trace (or none): drop what was derived from the last one.
  virtual void onTraceChanged(const Trace* /*trace*/) {}
  // Paints ROW, whose top edge is at TOP in canvas coordinates, clipped to the event area.
  virtual void paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) = 0;
  // The greyer text after the row's label.
  virtual QString detail(const TimelineRow& row, const TimelineGeometry& /*geometry*/) const { return row.detail; }
  // The tooltip at X in the event area over ROW, or empty for the canvas's own.
  virtual QString tooltip(const TimelineRow& /*row*/, double /*x*/, const TimelineGeometry& /*geometry*/) const {
    return {};
  }
};

}  // namespace gpuscope::ui
