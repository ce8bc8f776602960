#include "ui/tables/report_pane.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <exception>

#include "core/db/sqlite_database.h"
#include "core/report/report_format.h"
#include "core/stats/stats_window.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {
namespace {

// Runs on a pool thread with its own connection to DATABASE, so the viewer's connection is never shared.
ReportRun runReport(const std::string& database, const std::string& name, TimeInterval range,
                    const ReportPane::TableMaker& maker) {
  try {
    if (!maker) return {runStatsReportInRange(database, name, range), {}};
    Database db = Database::openReadOnly(database);
    restrictEventTables(db, range);
    return {maker(db), {}};
  } catch (const std::exception& error) {
    return {{}, QString::fromUtf8(error.what())};
  }
}

constexpr int kNameColumnMinimum = 240;  // px: the widest a name column shown first gets in a narrow pane

// What names a report's row: "Name", "Kernel Name", "Range", "Operation".
bool namesTheRow(const std::string& title) {
  return title == "Name" || title.ends_with(" Name") || title == "Range" || title == "Operation";
}

// nsys puts the name last in most of its reports (cuda_gpu_trace after twenty columns of numbers), off-screen at
// the right of a pane of ordinary width: VIEW shows it first, no wider than a third of the pane (a demangled name
// would push the numbers off-screen in its turn; it elides, its whole width a drag away). Only the view moves it:
// the model, the sorting and the CSV export keep nsys's order.
void showNameColumnFirst(QTreeView* view, const ReportTable& table) {
  QHeaderView* header = view->header();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  for (int logical = 0; logical < header->count(); ++logical) {
    if (header->visualIndex(logical) != logical) header->moveSection(header->visualIndex(logical), logical);
  }
  if (table.columns.size() < 2 || !namesTheRow(table.columns.back().title)) return;
  // cuda_api_trace names its rows third and ends with the thread's name: nothing to move.
  for (size_t column = 0; column + 1 < table.columns.size(); ++column)
    if (table.columns[column].title == "Name") return;
  const int name = static_cast<int>(table.columns.size()) - 1;
  header->moveSection(header->visualIndex(name), 0);
  const int wanted =
      std::max(static_cast<QAbstractItemView*>(view)->sizeHintForColumn(name), header->sectionSizeHint(name));
  header->setSectionResizeMode(name, QHeaderView::Interactive);
  header->resizeSection(name, std::min(wanted, std::max(kNameColumnMinimum, view->viewport()->width() / 3)));
}

}  // namespace

ReportPane::ReportPane(QWidget* parent)
    : QWidget(parent), model_(new ReportTableModel(this)), proxy_(createTableProxy(model_, -1, this)) {
  buildLayout();
  connect(&watcher_, &QFutureWatcher<ReportRun>::finished, this, &ReportPane::finished);
  connect(filterEdit_, &QLineEdit::textChanged, this, &ReportPane::applyFilter);
  connect(regex_, &QCheckBox::toggled, this, &ReportPane::applyFilter);
  connect(export_, &QPushButton::clicked, this, &ReportPane::chooseExportFile);
  // A click, an arrow key or Enter shows the row on the timeline, as in the kernel table.
  auto activate = [this](const QModelIndex& index) {
    if (index.isValid()) emit rowActivated(proxy_->mapToSource(index).row());
  };
  connect(view_, &QTreeView::activated, this, activate);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, activate);
}

// A run still going keeps its own copies of what it reads; its result is simply never collected.
ReportPane::~ReportPane() = default;

void ReportPane::buildLayout() {
  filterEdit_ = new QLineEdit(this);
  filterEdit_->setPlaceholderText(tr("Filter rows"));
  filterEdit_->setClearButtonEnabled(true);
  regex_ = new QCheckBox(tr("Regex"), this);
  status_ = new QLabel(this);
  export_ = new QPushButton(tr("Export CSV..."), this);
  export_->setToolTip(tr("Save the rows shown as CSV, as nsys stats --format csv writes it"));
  export_->setEnabled(false);
  controlBar_ = new QHBoxLayout;
  controlBar_->addWidget(filterEdit_, 1);
  controlBar_->addWidget(regex_);
  controlBar_->addWidget(status_);
  controlBar_->addWidget(export_);

  view_ = new QTreeView(this);
  view_->setModel(proxy_);
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->setSortingEnabled(true);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(controlBar_);
  layout->addWidget(view_, 1);
}

void ReportPane::setReport(std::shared_ptr<const Trace> trace, const QString& name) {
  trace_ = std::move(trace);
  name_ = name;
  ++generation_;
  stale_ = true;
  if (!trace_) {
    stale_ = false;
    model_->setReport({});
    status_->setText({});
    export_->setEnabled(false);
    return;
  }
  if (isVisible()) runNow();
}

void ReportPane::setRange(TimeInterval range) {
  if (range == range_) return;
  range_ = range;
  setReport(trace_, name_);
}

void ReportPane::setTimeBase(TimeNs origin, TimeBase base) { model_->setTimeBase(origin, base); }

void ReportPane::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  runNow();
}

void ReportPane::runNow() {
  if (!stale_ || running_ || !trace_) return;
  stale_ = false;
  running_ = true;
  runningGeneration_ = generation_;
  status_->setText(tr("Running %1...").arg(name_));
  export_->setEnabled(false);
  // The SQLite trace the trace was loaded from, as the door (core/open) handed it over: for a PyTorch trace,
  // its import, not the JSON file the user named (trace_->path()).
  const std::string& database = trace_->database().path();
  watcher_.setFuture(QtConcurrent::run(runReport, database, name_.toStdString(), range_, maker_));
}

void ReportPane::finished() {
  running_ = false;
  if (runningGeneration_ == generation_) {
    ReportRun run = watcher_.result();
    model_->setReport(std::move(run.table));
    showNameColumnFirst(view_, model_->report());
    view_->sortByColumn(-1, Qt::AscendingOrder);  // the report's own order until the user sorts
    export_->setEnabled(run.error.isEmpty());
    status_->setText(run.error);
    if (run.error.isEmpty()) applyFilter();
    emit reportReady();
  }
  if (stale_ && isVisible()) runNow();
}

void ReportPane::applyFilter() {
  QString problem = proxy_->setFilter(filterEdit_->text(), regex_->isChecked());
  if (!problem.isEmpty()) {
    status_->setText(tr("Invalid regular expression: %1").arg(problem));
    return;
  }
  int total = model_->rowCount();
  int shown = proxy_->rowCount();
  QString rows = shown == total ? tr("%1 rows").arg(total) : tr("%1 of %2 rows").arg(shown).arg(total);
  // An empty report over a short range would otherwise read as "nothing happened here".
  status_->setText(range_.empty() ? rows : tr("%1 in the range picked on the ruler").arg(rows));
}

QString ReportPane::status() const { return status_->text(); }

ReportTable ReportPane::shownRows() const {
  const ReportTable& all = model_->report();
  ReportTable shown{all.name, all.title, all.columns, {}};
  shown.rows.reserve(static_cast<size_t>(proxy_->rowCount()));
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    int source = proxy_->mapToSource(proxy_->index(row, 0)).row();
    shown.rows.push_back(all.rows[static_cast<size_t>(source)]);
  }
  return shown;
}

QString ReportPane::exportCsv(const QString& path) const {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return tr("Could not write %1: %2").arg(path, file.errorString());
  std::string csv = formatCsv(shownRows());
  file.write(csv.data(), static_cast<qint64>(csv.size()));
  if (!file.commit()) return tr("Could not write %1: %2").arg(path, file.errorString());
  return {};
}

void ReportPane::chooseExportFile() {
  QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), name_ + QStringLiteral(".csv"),
                                              tr("CSV files (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  QString problem = exportCsv(path);
  if (!problem.isEmpty()) QMessageBox::warning(this, tr("Export CSV"), problem);
}

}  // namespace gpuscope::ui
