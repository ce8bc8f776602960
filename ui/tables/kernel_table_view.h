#pragma once
// KernelTableView: the kernels of the trace, every instance or grouped by name, with a text/regex filter;
// double-clicking a row zooms the timeline to the kernel (a group: its first instance) and selects it.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QTreeView;

namespace gpuscope::ui {

class KernelSummaryModel;
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

  QTreeView* view() const { return view_; }
  QLineEdit* filterEdit() const { return filterEdit_; }
  KernelTableModel* instanceModel() const { return instances_; }
  KernelSummaryModel* summaryModel() const { return summary_; }
  TableFilterProxy* instanceProxy() const { return instanceProxy_; }
  TableFilterProxy* summaryProxy() const { return summaryProxy_; }

 private:
  void buildLayout();
  void reload();
  void applyFilter();
  void showMode();
  void focusRow(const QModelIndex& proxyIndex);
  void showDemangled(bool shown);
  void followSelection();
  void updateCount(const QString& problem = {});

  TraceSession* session_;
  KernelTableModel* instances_;
  KernelSummaryModel* summary_;
  TableFilterProxy* instanceProxy_;
  TableFilterProxy* summaryProxy_;
  QComboBox* mode_ = nullptr;
  QLineEdit* filterEdit_ = nullptr;
  QCheckBox* regex_ = nullptr;
  QCheckBox* demangled_ = nullptr;
  bool following_ = false;  // the current row moves to follow the session, not the user
  QLabel* count_ = nullptr;
  QTreeView* view_ = nullptr;
};

}  // namespace gpuscope::ui
