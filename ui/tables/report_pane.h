#pragma once
// ReportPane: one stats report of a trace, run in the background, shown as a sortable, filterable table
// that can be exported to CSV. The stats and NVTX projection views are built on it.
#include <QFutureWatcher>
#include <QString>
#include <QWidget>
#include <functional>
#include <memory>

#include "core/model/trace.h"
#include "core/query/kernel_rows.h"
#include "core/report/report_table.h"

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace gpuscope {
class Database;
}

namespace gpuscope::ui {

class ReportTableModel;
class TableFilterProxy;

// What a background run hands back: the report, or the one sentence saying why there is none.
struct ReportRun {
  ReportTable table;
  QString error;
};

class ReportPane : public QWidget {
  Q_OBJECT
 public:
  explicit ReportPane(QWidget* parent = nullptr);
  ~ReportPane() override;

  // Shows report NAME of TRACE: runs it now when the pane is visible, otherwise when it is next shown.
  // A null trace empties the pane. A run still going for an earlier request is dropped when it ends.
  void setReport(std::shared_ptr<const Trace> trace, const QString& name);
  const QString& reportName() const { return name_; }
  // Restricts the report to the events that share time with RANGE (empty: the whole trace), and runs it again.
  void setRange(TimeInterval range);
  TimeInterval range() const { return range_; }
  // Makes the pane's table from the trace's database (its event tables restricted to the range), on a pool thread,
  // in place of running the named report: a view's own reading of one, such as NVTX ranges grouped by step.
  // Null: the named report, as `gpuscope stats` prints it.
  using TableMaker = std::function<ReportTable(Database& db)>;
  void setTableMaker(TableMaker maker) { maker_ = std::move(maker); }
  // A trace report's moments (Start, End) show counted from ORIGIN, their headers naming BASE (the session's).
  void setTimeBase(TimeNs origin, TimeBase base);
  bool isRunning() const { return running_; }

  // Writes the rows shown (filtered and sorted) as nsys's CSV. Returns an error sentence, or empty.
  QString exportCsv(const QString& path) const;

  ReportTableModel* model() const { return model_; }
  TableFilterProxy* proxy() const { return proxy_; }
  QTreeView* view() const { return view_; }
  // The row above the table (filter, regex, row count, export): a view may put its own controls first, so
  // that a short window keeps its rows for the table.
  QHBoxLayout* controlBar() const { return controlBar_; }
  QLineEdit* filterEdit() const { return filterEdit_; }
  QString status() const;

 signals:
  // A run ended: the table holds the new report, or the status says why it could not run.
  void reportReady();
  // A row was double-clicked or activated; ROW is the model's (source) row.
  void rowActivated(int row);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void buildLayout();
  void runNow();
  void finished();
  void applyFilter();
  void chooseExportFile();
  ReportTable shownRows() const;

  ReportTableModel* model_;
  TableFilterProxy* proxy_;
  QFutureWatcher<ReportRun> watcher_;
  std::shared_ptr<const Trace> trace_;
  QString name_;
  TableMaker maker_;
  TimeInterval range_;
  bool stale_ = false;
  bool running_ = false;
  uint64_t generation_ = 0;  // of the request whose result the pane waits for
  uint64_t runningGeneration_ = 0;
  QLineEdit* filterEdit_ = nullptr;
  QHBoxLayout* controlBar_ = nullptr;
  QCheckBox* regex_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* export_ = nullptr;
  QTreeView* view_ = nullptr;
};

}  // namespace gpuscope::ui
