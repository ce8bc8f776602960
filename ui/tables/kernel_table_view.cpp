#include "ui/tables/kernel_table_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScopedValueRollback>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "core/text/units.h"
#include "ui/session/trace_session.h"
#include "ui/tables/event_menu.h"
#include "ui/tables/fill_column.h"
#include "ui/tables/kernel_summary_model.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

KernelTableView::KernelTableView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      instances_(new KernelTableModel(this)),
      summary_(new KernelSummaryModel(this)),
      summaryProxy_(createTableProxy(summary_, KernelSummaryModel::NameColumn, this)) {
  buildLayout();
  connect(session_, &TraceSession::traceChanged, this, &KernelTableView::reload);
  connect(session_, &TraceSession::selectionChanged, this, &KernelTableView::followSelection);
  connect(session_, &TraceSession::rangeChanged, this, &KernelTableView::applyRange);
  connect(session_, &TraceSession::timeBaseChanged, this, [this] {
    instances_->setTimeOrigin(session_->timeOrigin());
    applyRange();  // the bar's times
  });
  connect(instances_, &KernelTableModel::groupsReady, summary_, &KernelSummaryModel::setGroups);
  connect(instances_, &KernelTableModel::rowsReady, this, [this] {
    updateCount(problem_);
    if (shown_) {
      std::optional<EventRef> event = std::exchange(shown_, std::nullopt);
      session_->select(*event);
    }
    followSelection();
  });
  connect(summary_, &QAbstractItemModel::modelReset, this, [this] { updateCount(problem_); });
  connect(view_, &QTableView::doubleClicked, this, &KernelTableView::focusRow);
  connect(view_, &QTableView::activated, this, &KernelTableView::focusRow);  // Enter
  connect(view_, &QWidget::customContextMenuRequested, this, &KernelTableView::showRowMenu);
  connect(demangled_, &QCheckBox::toggled, this, &KernelTableView::showDemangled);
  connect(mode_, &QComboBox::currentIndexChanged, this, &KernelTableView::showMode);
  connect(filterEdit_, &QLineEdit::textChanged, this, &KernelTableView::applyFilter);
  connect(regex_, &QCheckBox::toggled, this, &KernelTableView::applyFilter);
  reload();
}

void KernelTableView::buildLayout() {
  mode_ = new QComboBox(this);
  mode_->addItems({tr("Every instance"), tr("By name")});
  mode_->setToolTip(tr("Show every kernel launch, or one row per kernel name"));
  filterEdit_ = new QLineEdit(this);
  filterEdit_->setPlaceholderText(tr("Filter kernels by name"));
  filterEdit_->setClearButtonEnabled(true);
  regex_ = new QCheckBox(tr("Regex"), this);
  demangled_ = new QCheckBox(tr("Demangled names"), this);
  demangled_->setObjectName(QStringLiteral("demangledNames"));
  demangled_->setChecked(true);
  demangled_->setToolTip(tr("Show each kernel's full demangled name beside its short name"));
  count_ = new QLabel(this);
  count_->setObjectName(QStringLiteral("kernelCount"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(mode_);
  bar->addWidget(filterEdit_, 1);
  bar->addWidget(regex_);
  bar->addWidget(demangled_);
  bar->addWidget(count_);

  // A table view, not a tree: QTreeView lays out an item of about 40 bytes for every row, 150 MB for the
  // 3.7M kernels of a 10M-event trace, where QTableView keeps an 8-byte section per row.
  view_ = new QTableView(this);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 4);
  view_->setShowGrid(false);
  view_->setWordWrap(false);
  view_->setSortingEnabled(true);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  // The names take the width left (the demangled ones where shown), never less than their titles.
  nameFill_ = new FillColumn(view_, KernelTableModel::DemangledColumn);
  view_->setToolTip(
      tr("Click a kernel (or move with the arrow keys) to show it on the timeline; right-click for "
         "more"));
  summaryProxy_->setFilterColumns({KernelSummaryModel::NameColumn, KernelSummaryModel::DemangledColumn});

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  rangeBar_ = new RangeBar(session_, tr("kernels"), this);
  layout->addWidget(rangeBar_);
  layout->addWidget(view_, 1);
  showMode();
}

void KernelTableView::setGrouped(bool grouped) { mode_->setCurrentIndex(grouped ? 1 : 0); }

bool KernelTableView::isGrouped() const { return mode_->currentIndex() == 1; }

void KernelTableView::setFilter(const QString& text, bool regex) {
  regex_->setChecked(regex);
  filterEdit_->setText(text);
  applyFilter();
}

void KernelTableView::reload() {
  QScopedValueRollback guard(following_, true);
  summary_->setGroups(nullptr, {});  // until the new trace's groups are ready
  instances_->setTimeOrigin(session_->timeOrigin());
  instances_->setTrace(session_->trace());
  applyRange();
  updateCount(problem_);
  followSelection();
}

void KernelTableView::applyFilter() {
  QScopedValueRollback guard(following_, true);
  problem_ = instances_->setNameFilter(filterEdit_->text(), regex_->isChecked());
  summaryProxy_->setFilter(filterEdit_->text(), regex_->isChecked());
  updateCount(problem_);
}

void KernelTableView::applyRange() {
  instances_->setRange(rangeBar_->sessionRange());
  rangeBar_->update();
}

void KernelTableView::showMode() {
  QScopedValueRollback guard(following_, true);
  bool grouped = isGrouped();
  QItemSelectionModel* previous = view_->selectionModel();  // setModel makes a new one and leaves the old
  view_->setModel(grouped ? static_cast<QAbstractItemModel*>(summaryProxy_) : instances_);
  delete previous;
  // A single click or an arrow key moves the timeline, not only a double click.
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (!following_) focusRow(current);
  });
  if (grouped)
    view_->sortByColumn(KernelSummaryModel::TotalColumn, Qt::DescendingOrder);
  else
    view_->sortByColumn(KernelTableModel::StartColumn, Qt::AscendingOrder);
  view_->horizontalHeader()->resizeSection(0, 220);
  // The other columns at least as wide as their titles ("Correlation ID" is wider than the default).
  for (int column = 2; column < view_->horizontalHeader()->count(); ++column)
    view_->horizontalHeader()->resizeSection(column, std::max(view_->horizontalHeader()->sectionSize(column),
                                                              view_->horizontalHeader()->sectionSizeHint(column)));
  showDemangled(demangled_->isChecked());
  applyFilter();
  followSelection();
}

void KernelTableView::showDemangled(bool shown) {
  view_->setColumnHidden(KernelTableModel::DemangledColumn, !shown);
  view_->horizontalHeader()->resizeSection(KernelTableModel::NameColumn, 220);
  nameFill_->setColumn(shown ? KernelTableModel::DemangledColumn : KernelTableModel::NameColumn);
}

std::optional<EventRef> KernelTableView::eventAtRow(int row) const {
  if (row < 0 || row >= view_->model()->rowCount() || !session_->hasTrace()) return std::nullopt;
  if (isGrouped()) return summary_->firstInstance(summaryProxy_->mapToSource(summaryProxy_->index(row, 0)).row());
  return instances_->eventAt(row);
}

void KernelTableView::focusRow(const QModelIndex& index) {
  if (!index.isValid()) return;
  if (std::optional<EventRef> event = eventAtRow(index.row())) session_->focusEvent(*event);
}

void KernelTableView::revealKernel(EventRef event) {
  setGrouped(false);
  // Clearing the filter requeries; on a large trace the row appears when the rows are ready.
  if (!filterEdit_->text().isEmpty()) setFilter({}, regex_->isChecked());
  shown_ = event;
  if (!instances_->isUpdating()) {
    shown_.reset();
    session_->select(event);
    followSelection();
  }
}

std::unique_ptr<QMenu> KernelTableView::rowMenu(int row) {
  std::optional<EventRef> event = eventAtRow(row);
  if (!event) return nullptr;
  EventMenuTargets targets;
  targets.session = session_;
  targets.filterToName = [this](const QString& name) { setFilter(name, false); };
  return createEventMenu(targets, *event, this);
}

void KernelTableView::showRowMenu(const QPoint& pos) {
  QModelIndex index = view_->indexAt(pos);
  if (!index.isValid()) return;
  if (std::unique_ptr<QMenu> menu = rowMenu(index.row())) menu->exec(view_->viewport()->mapToGlobal(pos));
}

// Highlights the selected kernel's row (or its name's row) when the selection comes from elsewhere.
void KernelTableView::followSelection() {
  const auto& selection = session_->selection();
  if (!selection || !session_->hasTrace() || instances_->isUpdating()) return;
  QModelIndex index;
  if (isGrouped()) {
    StringId name = session_->trace()->longNameId(*selection);
    for (int row = 0; row < summary_->rowCount() && !index.isValid(); ++row) {
      if (summary_->groupAt(row).longName == name) index = summaryProxy_->mapFromSource(summary_->index(row, 0));
    }
  } else if (std::optional<int> row = instances_->rowOf(*selection)) {
    index = instances_->index(*row, 0);
  }
  if (!index.isValid()) return;
  QScopedValueRollback guard(following_, true);
  view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  view_->scrollTo(index);
}

QString KernelTableView::countText() const { return count_->text(); }

void KernelTableView::updateCount(const QString& problem) {
  if (!problem.isEmpty()) {
    count_->setText(tr("Invalid regular expression: %1").arg(problem));
    return;
  }
  if (instances_->isUpdating()) {
    count_->setText(tr("Updating…"));
    return;
  }
  int total = instances_->totalCount();
  int shown = isGrouped() ? summaryProxy_->rowCount() : instances_->rowCount();
  int all = isGrouped() ? summary_->rowCount() : total;
  QString noun = isGrouped() ? tr("names") : tr("kernels");
  count_->setText(shown == all ? tr("%1 %2").arg(all).arg(noun) : tr("%1 of %2 %3").arg(shown).arg(all).arg(noun));
}

}  // namespace gpuscope::ui
