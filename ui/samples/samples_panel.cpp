#include "ui/samples/samples_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "core/open/open_trace.h"
#include "core/samples/function_shares.h"
#include "core/schema/table_names.h"
#include "ui/samples/flame_graph_view.h"
#include "ui/samples/sample_scope.h"
#include "ui/samples/sample_tree_model.h"
#include "ui/samples/sample_tree_view.h"
#include "ui/session/trace_session.h"
#include "ui/tables/table_proxy.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

SampleRead readSamplesOf(const std::string& path) {
  try {
    return readCpuSamples(openTrace(path).connect());
  } catch (const TraceError& error) {
    SampleRead failed;
    failed.missingTables.push_back(error.what());
    return failed;
  }
}

// How many rows revealing a function looks at, at most: a deep recursive tree is not walked whole.
constexpr int kRevealLimit = 20000;

}  // namespace

SamplesPanel::SamplesPanel(TraceSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  scope_ = new QLabel(this);
  scope_->setObjectName(QStringLiteral("samplesScope"));
  scope_->setWordWrap(true);
  scope_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mode_ = new QComboBox(this);
  mode_->setObjectName(QStringLiteral("samplesMode"));
  mode_->addItem(tr("Bottom-up"), static_cast<int>(SampleViewMode::BottomUp));
  mode_->addItem(tr("Top-down"), static_cast<int>(SampleViewMode::TopDown));
  mode_->addItem(tr("Flat"), static_cast<int>(SampleViewMode::Flat));
  mode_->setToolTip(
      tr("Bottom-up: where the time went, then who called it. Top-down: callers first. "
         "Flat: each function once, with its self and total samples."));
  filter_ = new QLineEdit(this);
  filter_->setObjectName(QStringLiteral("samplesFilter"));
  filter_->setPlaceholderText(tr("Filter functions"));
  filter_->setClearButtonEnabled(true);
  filter_->setToolTip(
      tr("Keeps the functions whose name contains this text, with their callers above them "
         "and what lies beneath them"));
  apart_ = new QLabel(this);
  apart_->setObjectName(QStringLiteral("samplesSetApart"));
  apart_->setWordWrap(true);
  apart_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  apart_->hide();
  model_ = new SampleTreeModel(this);
  proxy_ = createTableProxy(model_, SampleTreeModel::Function, this);
  proxy_->setFilterRole(SampleTreeModel::kFilterTextRole);
  proxy_->setRecursiveFilteringEnabled(true);  // a row shows where it or a row beneath it matches
  proxy_->setAutoAcceptChildRows(true);        // and a match shows what lies beneath it
  tree_ = new SampleTreeView(this);
  tree_->setObjectName(QStringLiteral("samplesTree"));
  tree_->setModel(proxy_);
  tree_->setUniformRowHeights(true);
  tree_->setSortingEnabled(true);
  tree_->sortByColumn(SampleTreeModel::Total, Qt::DescendingOrder);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  // Deep call trees: a small indentation, the counts as narrow as their numbers, the names the rest.
  tree_->setIndentation(12);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->resizeSection(SampleTreeModel::Module, 110);
  for (int column = SampleTreeModel::Total; column < SampleTreeModel::ColumnCount; ++column)
    tree_->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
  // The counts first, as perf report and py-spy print them, then the function and its module: a long name
  // scrolls across without taking the counts off-screen with it.
  tree_->header()->moveSection(tree_->header()->visualIndex(SampleTreeModel::Function),
                               SampleTreeModel::ColumnCount - 1);
  tree_->header()->moveSection(tree_->header()->visualIndex(SampleTreeModel::Module), SampleTreeModel::ColumnCount - 1);
  flame_ = new FlameGraphView(this);
  flame_->setObjectName(QStringLiteral("samplesFlameGraph"));

  // The scope, the filter and the view picker, with what was set apart under them: above the tree and the
  // flame graph where they are stacked, above the flame graph where they are side by side, so that the tree
  // has the tab's whole height in a low window.
  controls_ = new QWidget(this);
  auto* pickers = new QHBoxLayout;
  pickers->addWidget(filter_, 1);
  pickers->addWidget(new QLabel(tr("View:"), controls_));
  pickers->addWidget(mode_);
  top_ = new QBoxLayout(QBoxLayout::LeftToRight);
  top_->setContentsMargins(0, 0, 0, 0);
  top_->addWidget(scope_, 1);
  top_->addLayout(pickers);
  auto* controlsLayout = new QVBoxLayout(controls_);
  controlsLayout->setContentsMargins(4, 2, 4, 2);
  controlsLayout->setSpacing(2);
  controlsLayout->addLayout(top_);
  controlsLayout->addWidget(apart_);
  split_ = new QSplitter(Qt::Vertical, this);
  split_->setObjectName(QStringLiteral("samplesSplitter"));
  split_->addWidget(tree_);
  flameScroll_ = new QScrollArea(this);
  flameScroll_->setWidgetResizable(true);
  flameScroll_->setWidget(flame_);
  auto* flameColumn = new QWidget(this);
  flameColumn_ = new QVBoxLayout(flameColumn);
  flameColumn_->setContentsMargins(0, 0, 0, 0);
  flameColumn_->setSpacing(0);
  flameColumn_->addWidget(flameScroll_, 1);
  split_->addWidget(flameColumn);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  split_->setHandleWidth(6);
  split_->setChildrenCollapsible(false);
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setSpacing(0);
  layout_->addWidget(controls_);
  layout_->addWidget(split_, 1);

  connect(mode_, &QComboBox::currentIndexChanged, this, &SamplesPanel::refresh);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilter(text, false);
    if (!text.isEmpty()) revealFunction(text, false, false);
  });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) { onCurrentRowChanged(current); });
  connect(tree_, &QWidget::customContextMenuRequested, this, [this](QPoint position) {
    QModelIndex index = tree_->indexAt(position);
    if (index.isValid())
      openMenu(index.data(SampleTreeModel::kFunctionRole).toString(), tree_->viewport()->mapToGlobal(position));
  });
  // Once per batch of rows expanded (revealing a function expands many), not once per row.
  fitLater_.setSingleShot(true);
  fitLater_.setInterval(0);
  connect(&fitLater_, &QTimer::timeout, this, &SamplesPanel::fitFunctionColumn);
  connect(tree_, &QTreeView::expanded, &fitLater_, qOverload<>(&QTimer::start));
  connect(flame_, &FlameGraphView::nodeClicked, this, &SamplesPanel::onFlameClicked);
  connect(flame_, &FlameGraphView::contextMenuRequested, this,
          [this](int32_t node, QPoint position) { openMenu(flame_->functionOf(node), position); });
  connect(&reader_, &QFutureWatcher<SampleRead>::finished, this, &SamplesPanel::onSamplesRead);
  connect(session_, &TraceSession::traceChanged, this, &SamplesPanel::onTraceChanged);
  connect(session_, &TraceSession::rangeChanged, this, &SamplesPanel::refresh);
  connect(session_, &TraceSession::selectionChanged, this, &SamplesPanel::refresh);
  connect(session_, &TraceSession::timeBaseChanged, this, &SamplesPanel::refresh);
  onTraceChanged();
}

SamplesPanel::~SamplesPanel() { reader_.waitForFinished(); }

QString SamplesPanel::scopeText() const { return scope_->text(); }

QString SamplesPanel::setApartText() const { return apart_->text(); }

void SamplesPanel::onTraceChanged() {
  reader_.waitForFinished();
  all_.reset();
  unavailable_.clear();
  readStarted_ = false;
  if (isVisible()) startReading();
  refresh();
}

void SamplesPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  updateOrientation();
  if (!readStarted_) startReading();
}

void SamplesPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  updateOrientation();
  fitFunctionColumn();
}

void SamplesPanel::updateOrientation() {
  // Side by side where the tab is wide (a 1280x720 window's tab is about four times as wide as high), the
  // tree above the flame graph otherwise; the tree gets most of the room either way. The sizes are set
  // when the orientation changes, so a splitter the user dragged stays where it was put.
  Qt::Orientation wanted = width() > 2 * height() ? Qt::Horizontal : Qt::Vertical;
  if (wanted == split_->orientation() && split_->property("laidOut").toBool()) return;
  split_->setOrientation(wanted);
  split_->setProperty("laidOut", true);
  QBoxLayout* from = wanted == Qt::Horizontal ? layout_ : flameColumn_;
  QBoxLayout* to = wanted == Qt::Horizontal ? flameColumn_ : layout_;
  from->removeWidget(controls_);
  to->insertWidget(0, controls_);
  // Beside the flame graph the column is narrow: the scope on a line of its own above the filter.
  top_->setDirection(wanted == Qt::Horizontal ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
  int length = wanted == Qt::Horizontal ? width() : height();
  length = std::max(length, 100);
  // Side by side the tree has the whole height, and the flame graph half the width to be read; stacked, the
  // tree gets three fifths of the height.
  int treeShare = wanted == Qt::Horizontal ? length / 2 : length * 3 / 5;
  split_->setSizes({treeShare, length - treeShare});
}

void SamplesPanel::startReading() {
  if (!session_->hasTrace() || readStarted_) return;
  readStarted_ = true;
  scope_->setText(tr("Reading CPU samples…"));
  reader_.setFuture(QtConcurrent::run(readSamplesOf, session_->trace()->path()));
}

void SamplesPanel::waitForSamples() {
  startReading();
  reader_.waitForFinished();
  if (readStarted_ && !all_ && unavailable_.isEmpty()) onSamplesRead();
}

void SamplesPanel::onSamplesRead() {
  if (!reader_.future().isValid() || all_ || !unavailable_.isEmpty()) return;
  SampleRead read = reader_.result();
  bool noTable = !read.missingTables.empty() && read.missingTables.front() != table::kSamplingCallchains;
  if (noTable || read.samples.size() == 0) {
    unavailable_ =
        tr("This trace has no CPU samples. nsys records them by default (--sample=process-tree); "
           "export the report with `nsys export --type sqlite` and open that file.");
  } else {
    all_ = std::make_shared<const CpuSamples>(std::move(read.samples));
  }
  refresh();
}

void SamplesPanel::refresh() {
  if (!all_) {
    if (!unavailable_.isEmpty()) scope_->setText(unavailable_);
    if (!readStarted_)
      scope_->setText(session_->hasTrace() ? tr("CPU samples are read when this tab is shown.") : QString());
    clean_.reset();
    model_->setSamples(nullptr, SampleViewMode::BottomUp);
    flame_->setSamples(nullptr);
    apart_->clear();
    apart_->hide();
    return;
  }
  const Trace& trace = *session_->trace();
  SampleScope scope =
      sampleScope(trace, {session_->rangeStart(), session_->rangeEnd()}, session_->selection(), session_->timeOrigin());
  auto selected = std::make_shared<const CpuSamples>(selectSamples(*all_, scope.filter));
  int64_t junkFrames = 0;
  clean_ = std::make_shared<const CpuSamples>(withoutJunkFrames(*selected, &junkFrames));
  scope_->setText(
      tr("%1 of %2 CPU samples: %3").arg(countText(selected->size()), countText(all_->size()), scope.description));
  auto mode = static_cast<SampleViewMode>(mode_->currentData().toInt());
  model_->setSamples(mode == SampleViewMode::Flat ? selected : clean_, mode);
  const bool flat = mode == SampleViewMode::Flat;
  tree_->setColumnHidden(SampleTreeModel::Self, flat);
  tree_->setColumnHidden(SampleTreeModel::SelfShare, flat);

  // What the view leaves out, said under the scope.
  QStringList apart;
  if (flat) {
    std::string pools = idlePoolsText(model_->shares());
    if (!pools.empty()) apart << tr("Set apart: %1").arg(QString::fromStdString(pools));
  }
  if (junkFrames > 0)
    apart << tr("%1 unwinder junk frames dropped (0xffffffffffffffff and data-file names)")
                 .arg(countText(static_cast<uint64_t>(junkFrames)));
  apart_->setText(apart.join(QStringLiteral(". ")));
  apart_->setVisible(!apart.isEmpty());

  if (!flat && proxy_->rowCount() > 0) tree_->expand(proxy_->index(0, 0));
  fitFunctionColumn();
  flame_->setSamples(clean_);
  if (!filter_->text().isEmpty()) revealFunction(filter_->text(), false, false);
}

void SamplesPanel::fitFunctionColumn() {
  // As wide as the names shown (indentation included) or the room the other columns leave, whichever is
  // more: a deep call tree scrolls across rather than cutting its names.
  QHeaderView* header = tree_->header();
  int others = 0;
  for (int column = 0; column < SampleTreeModel::ColumnCount; ++column)
    if (column != SampleTreeModel::Function && !header->isSectionHidden(column)) others += header->sectionSize(column);
  int room = tree_->viewport()->width() - others;
  tree_->resizeColumnToContents(SampleTreeModel::Function);
  header->resizeSection(SampleTreeModel::Function,
                        std::max({room, header->sectionSize(SampleTreeModel::Function), 120}));
}

void SamplesPanel::setMode(int mode) { mode_->setCurrentIndex(mode_->findData(mode)); }

void SamplesPanel::onCurrentRowChanged(const QModelIndex& current) {
  if (syncing_) return;
  QString label = current.data(SampleTreeModel::kFunctionRole).toString();
  session_->setHighlightedFunction(label);
  if (model_->mode() == SampleViewMode::TopDown) {
    int32_t node = model_->nodeOf(proxy_->mapToSource(current));
    flame_->setSelectedNode(node);
    QRectF frame = flame_->nodeRect(node);
    if (!frame.isEmpty())
      flameScroll_->ensureVisible(static_cast<int>(frame.center().x()), static_cast<int>(frame.center().y()), 50,
                                  FlameGraphView::kRowHeight * 2);
  } else {
    flame_->setSelectedNode(-1);
  }
}

void SamplesPanel::onFlameClicked(int32_t node) {
  QString label = flame_->functionOf(node);
  session_->setHighlightedFunction(label);
  QModelIndex row;
  if (model_->mode() == SampleViewMode::TopDown) {
    row = proxy_->mapFromSource(model_->indexOfNode(node));
  } else if (!label.isEmpty()) {
    // The row of the same function: a top-level one first (a bottom-up tree's roots are the leaves; the flat
    // view's rows are the functions), else the first of its rows beneath.
    for (int r = 0; r < proxy_->rowCount() && !row.isValid(); ++r)
      if (proxy_->index(r, 0).data(SampleTreeModel::kFunctionRole).toString() == label) row = proxy_->index(r, 0);
    if (!row.isValid()) {
      QScopedValueRollback<bool> guard(syncing_, true);
      revealFunction(label, true, false);
      return;
    }
  }
  QScopedValueRollback<bool> guard(syncing_, true);
  if (!row.isValid()) {
    tree_->setCurrentIndex({});
    return;
  }
  for (QModelIndex up = row.parent(); up.isValid(); up = up.parent()) tree_->expand(up);
  tree_->setCurrentIndex(row);
  tree_->scrollTo(row);
}

void SamplesPanel::revealFunction(const QString& label, bool exact, bool openMatches) {
  // Depth first, in the shown order; a match's own subtree is not searched further.
  int visited = 0;
  QModelIndex first;
  std::vector<QModelIndex> pending;
  for (int r = proxy_->rowCount() - 1; r >= 0; --r) pending.push_back(proxy_->index(r, 0));
  while (!pending.empty() && visited < kRevealLimit) {
    QModelIndex index = pending.back();
    pending.pop_back();
    ++visited;
    QString function = index.data(SampleTreeModel::kFunctionRole).toString();
    bool match = exact ? function == label : function.contains(label, Qt::CaseInsensitive);
    if (match) {
      for (QModelIndex up = index.parent(); up.isValid(); up = up.parent()) tree_->expand(up);
      if (openMatches) tree_->expandRecursively(index, 1);
      if (!first.isValid()) first = index;
      continue;
    }
    for (int r = proxy_->rowCount(index) - 1; r >= 0; --r) pending.push_back(proxy_->index(r, 0, index));
  }
  if (first.isValid()) {
    tree_->setCurrentIndex(first);
    tree_->scrollTo(first, QAbstractItemView::PositionAtTop);
    fitFunctionColumn();
    // A deep row whose name starts out of view: its indentation scrolled out of the way. A row whose name
    // shows beside the counts stays put, counts and all.
    constexpr int kNameShown = 80;
    QScrollBar* across = tree_->horizontalScrollBar();
    const int left = tree_->visualRect(first).left();
    if (left < 0 || left + kNameShown > tree_->viewport()->width())
      across->setValue(across->value() + left - 2 * tree_->indentation());
  }
}

QMenu* SamplesPanel::createFunctionMenu(const QString& label, QWidget* parent) {
  auto* menu = new QMenu(parent);
  menu->setObjectName(QStringLiteral("samplesFunctionMenu"));
  QString shown = label.size() > 60 ? label.left(57) + QStringLiteral("…") : label;
  menu->addAction(tr("Filter to %1").arg(shown), this, [this, label] { filterTo(label); });
  menu->addAction(tr("Copy name"), this, [label] { QApplication::clipboard()->setText(label); });
  menu->addSeparator();
  menu->addAction(tr("Show callers (bottom-up)"), this, [this, label] { showCallers(label); });
  menu->addAction(tr("Show callees (top-down)"), this, [this, label] { showCallees(label); });
  menu->addSeparator();
  menu->addAction(tr("Select where it ran"), this, [this, label] { selectWhereItRan(label); })
      ->setToolTip(tr("Sets the ruler's range from the first to the last sample of this function in the scope"));
  return menu;
}

void SamplesPanel::openMenu(const QString& label, QPoint globalPosition) {
  if (label.isEmpty()) return;
  std::unique_ptr<QMenu> menu(createFunctionMenu(label, this));
  menu->exec(globalPosition);
}

void SamplesPanel::filterTo(const QString& label) {
  filter_->setText(label);
  session_->setHighlightedFunction(label);
}

void SamplesPanel::showCallers(const QString& label) {
  setMode(static_cast<int>(SampleViewMode::BottomUp));
  filter_->setText(label);
  revealFunction(label, true, true);
  session_->setHighlightedFunction(label);
}

void SamplesPanel::showCallees(const QString& label) {
  setMode(static_cast<int>(SampleViewMode::TopDown));
  filter_->setText(label);
  revealFunction(label, true, true);
  session_->setHighlightedFunction(label);
}

void SamplesPanel::selectWhereItRan(const QString& label) {
  if (!clean_ || label.isEmpty()) return;
  const CpuSamples& samples = *clean_;
  const std::string text = label.toStdString();
  std::vector<bool> matches(samples.names.size());
  for (size_t n = 0; n < samples.names.size(); ++n) matches[n] = functionLabel(samples.names[n]) == text;
  std::optional<TimeNs> first, last;
  for (size_t s = 0; s < samples.size(); ++s) {
    for (const SampleFrame& frame : samples.stackOf(s)) {
      if (!matches[frame.symbol]) continue;
      first = std::min(first.value_or(samples.start[s]), samples.start[s]);
      last = std::max(last.value_or(samples.start[s]), samples.start[s]);
      break;
    }
  }
  if (!first) return;
  session_->setHighlightedFunction(label);
  // To just past the last sample, so that a range of one sample still holds it.
  session_->setRange(*first, *last + 1);
}

}  // namespace gpuscope::ui
