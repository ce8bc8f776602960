#pragma once
// KernelTableView: the kernels of the trace, every instance or grouped by name, with a text/regex filter and
// the ruler's range (when one is picked: only kernels in it, and a bar that says so and clears it). A click,
// the arrow keys or Enter move the timeline to the kernel (a group: its first instance); a right click opens
// the event menu.
#include <QWidget>
#include <memory>
#include <optional>

#include "core/model/trace.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QModelIndex;
class QToolButton;
class QTableView;

namespace gpuscope::ui {

class FillColumn;
class KernelSummaryModel;
class RangeBar;
class KernelTableModel;
class TableFilterProxy;
class TraceSession;

class KernelTableView : public QWidget {
  Q_OBJECT
 public:
  KernelTableView(TraceSession* session, QWidget* parent = nullptr);

  // Every instance (false) or one row per kernel name (true).
  void setGrouped(bool grouped);
  bool isGrouped() const;
  void setFilter(const QString& text, bool regex);
  // Shows EVENT's row (every instance, no name filter, so that it shows) and makes it current.
  void revealKernel(EventRef event);

  QTableView* view() const { return view_; }
  QLineEdit* filterEdit() const { return filterEdit_; }
  KernelTableModel* instanceModel() const { return instances_; }
  KernelSummaryModel* summaryModel() const { return summary_; }
  TableFilterProxy* summaryProxy() const { return summaryProxy_; }
  // The kernel a row of the view stands for (a group: its first instance).
  std::optional<EventRef> eventAtRow(int row) const;
  // The menu a right click on ROW of the view opens (Zoom to, Filter to this name, Copy name); null off the rows.
  std::unique_ptr<QMenu> rowMenu(int row);
  // The bar saying which range the rows are restricted to; hidden without a range.
  RangeBar* rangeBar() const { return rangeBar_; }
  QString countText() const;

 private:
  void buildLayout();
  void reload();
  void applyFilter();
  void applyRange();
  void showMode();
  void focusRow(const QModelIndex& index);
  void showDemangled(bool shown);
  void followSelection();
  void updateCount(const QString& problem = {});
  void showRowMenu(const QPoint& pos);

  TraceSession* session_;
  KernelTableModel* instances_;
  KernelSummaryModel* summary_;
  TableFilterProxy* summaryProxy_;
  QComboBox* mode_ = nullptr;
  QLineEdit* filterEdit_ = nullptr;
  QCheckBox* regex_ = nullptr;
  QCheckBox* demangled_ = nullptr;
  bool following_ = false;         // the current row moves to follow the session, not the user
  std::optional<EventRef> shown_;  // a kernel to make current once the rows are ready
  QString problem_;
  QLabel* count_ = nullptr;
  RangeBar* rangeBar_ = nullptr;
  QTableView* view_ = nullptr;
  FillColumn* nameFill_ = nullptr;
};

}  // namespace gpuscope::ui
