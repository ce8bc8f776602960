#pragma once
// TimelineView: the CPU and GPU timeline of a trace (rows, ruler, scroll bar, the legend of the GPU
// shading while there is some, and the Ctrl+F find bar), driven by and driving the shared TraceSession.
#include <QWidget>

#include "ui/session/trace_session.h"

class QScrollBar;

namespace gpuscope::ui {

class GpuShadingLegend;
class TimelineCanvas;
class TimelineFindBar;

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(TraceSession* session, QWidget* parent = nullptr);

  TimelineCanvas* canvas() const { return canvas_; }
  TimelineFindBar* findBar() const { return findBar_; }
  GpuShadingLegend* shadingLegend() const { return legend_; }
  QScrollBar* verticalScrollBar() const { return verticalBar_; }
  void openFindBar();

 private:
  TraceSession* session_;
  QScrollBar* verticalBar_;
  TimelineCanvas* canvas_;
  GpuShadingLegend* legend_;
  TimelineFindBar* findBar_;
};

}  // namespace gpuscope::ui
