#pragma once
// EventMenu: the context menu of an event, on the timeline or in a table: Zoom to, Filter to this name,
// Copy name (the full demangled name) and Show in table. Entries whose target is not given are left out.
#include <QString>
#include <functional>
#include <memory>

#include "core/model/trace.h"

class QMenu;
class QWidget;

namespace gpuscope::ui {

class TraceSession;

struct EventMenuTargets {
  TraceSession* session = nullptr;                        // Zoom to: focuses the event
  std::function<void(const QString& name)> filterToName;  // kernels only: filter the kernel table to the name
  std::function<void(EventRef event)> showInTable;        // kernels only: select the event's row in the table
};

// The menu for EVENT of the session's trace; its actions are named zoomTo, filterToName, copyName, showInTable.
std::unique_ptr<QMenu> createEventMenu(const EventMenuTargets& targets, EventRef event, QWidget* parent = nullptr);

}  // namespace gpuscope::ui
