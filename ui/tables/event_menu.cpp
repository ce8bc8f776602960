#include "ui/tables/event_menu.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>

#include "core/details/event_details.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {

std::unique_ptr<QMenu> createEventMenu(const EventMenuTargets& targets, EventRef event, QWidget* parent) {
  auto menu = std::make_unique<QMenu>(parent);
  TraceSession* session = targets.session;
  if (!session || !session->hasTrace() || !isValidEvent(*session->trace(), event)) return menu;
  std::shared_ptr<const Trace> trace = session->trace();
  const bool kernel = trace->track(event.track).kind == TrackKind::GpuKernels;
  // The full name: a kernel's demangled one, which tells two templates of one short name apart.
  const QString fullName = QString::fromStdString(trace->longName(event));
  auto add = [&](const QString& text, const char* name, auto slot) {
    QAction* action = menu->addAction(text);
    action->setObjectName(QString::fromLatin1(name));
    QObject::connect(action, &QAction::triggered, menu.get(), slot);
  };
  add(QObject::tr("Zoom to"), "zoomTo", [session, event] { session->focusEvent(event); });
  if (kernel && targets.filterToName) {
    add(QObject::tr("Filter to this name"), "filterToName",
        [filter = targets.filterToName, fullName] { filter(fullName); });
  }
  add(QObject::tr("Copy name"), "copyName", [fullName] { QGuiApplication::clipboard()->setText(fullName); });
  if (kernel && targets.showInTable) {
    add(QObject::tr("Show in table"), "showInTable", [show = targets.showInTable, event] { show(event); });
  }
  return menu;
}

}  // namespace gpuscope::ui
