#include "ui/timeline/timeline_view.h"

#include <QGridLayout>
#include <QScrollBar>
#include <QShortcut>
#include <QTimer>

#include "ui/timeline/gpu_shading_legend.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_find_bar.h"

namespace gpuscope::ui {

TimelineView::TimelineView(TraceSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  verticalBar_ = new QScrollBar(Qt::Vertical, this);
  canvas_ = new TimelineCanvas(session_, verticalBar_, this);
  legend_ = new GpuShadingLegend(this);
  legend_->hide();
  findBar_ = new TimelineFindBar(session_, this);
  findBar_->hide();

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(0);
  grid->addWidget(canvas_, 0, 0);
  grid->addWidget(verticalBar_, 0, 1);
  grid->addWidget(legend_, 1, 0, 1, 2);
  grid->addWidget(findBar_, 2, 0, 1, 2);
  grid->setRowStretch(0, 1);
  findBar_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  setFocusProxy(canvas_);

  auto* find = new QShortcut(QKeySequence::Find, this);
  find->setContext(Qt::WidgetWithChildrenShortcut);
  connect(find, &QShortcut::activated, this, &TimelineView::openFindBar);
  connect(findBar_, &TimelineFindBar::matchActivated, this, [this](EventRef event) {
    canvas_->selectEvent(event);
    canvas_->revealEvent(event, TimelineCanvas::Reveal::Focus);
  });
  connect(canvas_, &TimelineCanvas::gpuShadingChanged, legend_,
          [this] { legend_->setVisible(!canvas_->gpuShading().empty()); });
  connect(findBar_, &TimelineFindBar::closed, canvas_, [this] { canvas_->setFocus(Qt::OtherFocusReason); });
  // A trace just opened: W/A/S/D/F work at once, without a click on the timeline first. Deferred, so that
  // the window has switched from its welcome page to the views by then.
  connect(session_, &TraceSession::traceChanged, this, [this] {
    if (!session_->hasTrace()) return;
    QTimer::singleShot(0, canvas_, [this] {
      if (canvas_->isVisible()) canvas_->setFocus(Qt::OtherFocusReason);
    });
  });
}

void TimelineView::openFindBar() { findBar_->open(); }

}  // namespace gpuscope::ui
