#pragma once
// TimelineView: the CPU and GPU timeline of a trace (rows, ruler, scroll bar and Ctrl+F find
// bar), driven by and driving the shared TraceSession.
#include <QWidget>

#include "ui/session/trace_session.h"

class QScrollBar;

namespace gpuscope::ui {

class TimelineCanvas;
class TimelineFindBar;

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(TraceSession* session, QWidget* parent = nullptr);

  TimelineCanvas* canvas() const { return canvas_; }
  TimelineFindBar* findBar() const { return findBar_; }
  QScrollBar* verticalScrollBar() const { return verticalBar_; }
  void openFindBar();

 private:
  TraceSession* session_;
  QScrollBar* verticalBar_;
  TimelineCanvas* canvas_;
  TimelineFindBar* findBar_;
};

}  // namespace gpuscope::ui
