#include "ui/timeline/timeline_row_menu.h"

#include "ui/timeline/timeline_canvas.h"

namespace gpuscope::ui {

std::unique_ptr<QMenu> rowMenu(TimelineCanvas& canvas, int row) {
  auto menu = std::make_unique<QMenu>();
  const TimelineLayout& layout = canvas.layout();
  const TimelineRow& target = layout.row(row);
  QString name = target.label;
  menu->addAction(QStringLiteral("Hide \"%1\"").arg(name), &canvas, [&canvas, row] { canvas.setRowHidden(row, true); });
  if (target.pinned) {
    menu->addAction(QStringLiteral("Unpin \"%1\"").arg(name), &canvas,
                    [&canvas, row] { canvas.setRowPinned(row, false); });
  } else {
    menu->addAction(QStringLiteral("Pin \"%1\" to the top").arg(name), &canvas,
                    [&canvas, row] { canvas.setRowPinned(row, true); });
  }
  if (target.isHeader()) {
    menu->addAction(target.collapsed ? QStringLiteral("Expand") : QStringLiteral("Collapse"), &canvas,
                    [&canvas, row] { canvas.toggleRow(row); });
  }
  menu->addSeparator();
  int hidden = layout.hiddenCount();
  QAction* showHidden = menu->addAction(
      hidden == 1 ? QStringLiteral("Show 1 hidden row") : QStringLiteral("Show %1 hidden rows").arg(hidden), &canvas,
      [&canvas] { canvas.showHiddenRows(); });
  showHidden->setEnabled(hidden > 0);
  return menu;
}

}  // namespace gpuscope::ui
