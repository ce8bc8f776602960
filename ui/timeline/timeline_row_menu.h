#pragma once
// The menu of a timeline row's label, as Nsight Systems and Perfetto have one: hide the row, pin it to the
// top (or unpin it), fold or open everything below it, and show the rows hidden so far.
#include <QMenu>
#include <memory>

namespace gpuscope::ui {

class TimelineCanvas;

// The menu for row ROW of CANVAS's layout; its actions change CANVAS when triggered.
std::unique_ptr<QMenu> rowMenu(TimelineCanvas& canvas, int row);

}  // namespace gpuscope::ui
