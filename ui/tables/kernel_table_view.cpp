#include "ui/tables/kernel_table_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/session/trace_session.h"
#include "ui/tables/kernel_summary_model.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

KernelTableView::KernelTableView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      instances_(new KernelTableModel(this)),
      summary_(new KernelSummaryModel(this)),
      instanceProxy_(createTableProxy(instances_, KernelTableModel::NameColumn, this)),
      summaryProxy_(createTableProxy(summary_, KernelSummaryModel::NameColumn, this)) {
  buildLayout();
  connect(session_, &TraceSession::traceChanged, this, &KernelTableView::reload);
  connect(session_, &TraceSession::selectionChanged, this, &KernelTableView::followSelection);
  connect(session_, &TraceSession::timeBaseChanged, this,
          [this] { instances_->setTimeOrigin(session_->timeOrigin()); });
  connect(view_, &QTreeView::doubleClicked, this, &KernelTableView::focusRow);
  connect(view_, &QTreeView::activated, this, &KernelTableView::focusRow);  // Enter
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
  auto* bar = new QHBoxLayout;
  bar->addWidget(mode_);
  bar->addWidget(filterEdit_, 1);
  bar->addWidget(regex_);
  bar->addWidget(demangled_);
  bar->addWidget(count_);

  view_ = new QTreeView(this);
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->setSortingEnabled(true);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setToolTip(tr("Click a kernel (or move with the arrow keys) to show it on the timeline"));
  instanceProxy_->setFilterColumns({KernelTableModel::NameColumn, KernelTableModel::DemangledColumn});
  summaryProxy_->setFilterColumns({KernelSummaryModel::NameColumn, KernelSummaryModel::DemangledColumn});

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
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
  instances_->setTrace(session_->trace());
  instances_->setTimeOrigin(session_->timeOrigin());
  summary_->setTrace(session_->trace());
  updateCount();
  followSelection();
}

void KernelTableView::applyFilter() {
  QScopedValueRollback guard(following_, true);
  QString problem = instanceProxy_->setFilter(filterEdit_->text(), regex_->isChecked());
  summaryProxy_->setFilter(filterEdit_->text(), regex_->isChecked());
  updateCount(problem);
}

void KernelTableView::showMode() {
  QScopedValueRollback guard(following_, true);
  bool grouped = isGrouped();
  QItemSelectionModel* previous = view_->selectionModel();  // setModel makes a new one and leaves the old
  view_->setModel(grouped ? static_cast<QAbstractItemModel*>(summaryProxy_) : instanceProxy_);
  delete previous;
  // A single click or an arrow key moves the timeline, not only a double click.
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (!following_) focusRow(current);
  });
  if (grouped)
    view_->sortByColumn(KernelSummaryModel::TotalColumn, Qt::DescendingOrder);
  else
    view_->sortByColumn(KernelTableModel::StartColumn, Qt::AscendingOrder);
  view_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  view_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
  view_->header()->resizeSection(0, 220);
  view_->header()->setStretchLastSection(false);
  showDemangled(demangled_->isChecked());
  applyFilter();
  followSelection();
}

void KernelTableView::showDemangled(bool shown) {
  view_->setColumnHidden(KernelTableModel::DemangledColumn, !shown);
  view_->header()->setSectionResizeMode(0, shown ? QHeaderView::Interactive : QHeaderView::Stretch);
}

void KernelTableView::focusRow(const QModelIndex& proxyIndex) {
  if (!proxyIndex.isValid() || !session_->hasTrace()) return;
  if (isGrouped())
    session_->focusEvent(summary_->firstInstance(summaryProxy_->mapToSource(proxyIndex).row()));
  else
    session_->focusEvent(instances_->eventAt(instanceProxy_->mapToSource(proxyIndex).row()));
}

// Highlights the selected kernel's row (or its name's row) when the selection comes from elsewhere.
void KernelTableView::followSelection() {
  const auto& selection = session_->selection();
  std::optional<int> sourceRow = selection ? instances_->rowOf(*selection) : std::nullopt;
  if (!sourceRow) return;
  QModelIndex index;
  if (isGrouped()) {
    StringId name = session_->trace()->longNameId(*selection);
    for (int row = 0; row < summary_->rowCount() && !index.isValid(); ++row) {
      if (summary_->groupAt(row).longName == name) index = summaryProxy_->mapFromSource(summary_->index(row, 0));
    }
  } else {
    index = instanceProxy_->mapFromSource(instances_->index(*sourceRow, 0));
  }
  if (!index.isValid()) return;
  QScopedValueRollback guard(following_, true);
  view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  view_->scrollTo(index);
}

void KernelTableView::updateCount(const QString& problem) {
  if (!problem.isEmpty()) {
    count_->setText(tr("Invalid regular expression: %1").arg(problem));
    return;
  }
  auto* proxy = isGrouped() ? summaryProxy_ : instanceProxy_;
  int total = proxy->sourceModel()->rowCount();
  int shown = proxy->rowCount();
  QString noun = isGrouped() ? tr("names") : tr("kernels");
  count_->setText(shown == total ? tr("%1 %2").arg(total).arg(noun)
                                 : tr("%1 of %2 %3").arg(shown).arg(total).arg(noun));
}

}  // namespace gpuscope::ui
