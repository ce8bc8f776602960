#include "ui/compare/compare_view.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/model/trace_summary.h"
#include "ui/analysis/compare_verdicts_view.h"
#include "ui/compare/alignment_bar.h"
#include "ui/compare/compare_roofline_view.h"
#include "ui/compare/compare_summary.h"
#include "ui/compare/memory_peaks.h"
#include "ui/compare/run_diff_model.h"
#include "ui/compare/run_gpus.h"
#include "ui/details/details_panel.h"
#include "ui/tables/table_proxy.h"
#include "ui/text.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_find_bar.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

// Splitter handles a user can hit (Qt's default is a pixel or two).
constexpr int kSplitterHandle = 7;

QString runTitle(const QString& letter, const Trace& trace) {
  QString file = QFileInfo(QString::fromStdString(trace.path())).fileName();
  return QStringLiteral("<b>%1</b> %2").arg(letter, file.toHtmlEscaped());
}

}  // namespace

CompareView::CompareView(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QWidget* parent)
    : QWidget(parent), a_(std::move(a)), b_(std::move(b)) {
  sessionA_ = new TraceSession(this);
  sessionB_ = new TraceSession(this);
  sessionA_->setTrace(a_);
  sessionB_->setTrace(b_);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setObjectName(QStringLiteral("timelinesOverTables"));
  splitter->setHandleWidth(kSplitterHandle);
  // The details of what was clicked sit right of both timelines, as in the main window.
  auto* timelinesAndDetails = new QSplitter(Qt::Horizontal, splitter);
  timelinesAndDetails->setHandleWidth(kSplitterHandle);
  timelinesAndDetails->addWidget(buildTimelines());
  timelinesAndDetails->addWidget(buildDetails());
  timelinesAndDetails->setStretchFactor(0, 4);
  timelinesAndDetails->setStretchFactor(1, 1);
  timelinesAndDetails->setSizes({1100, 380});
  splitter->addWidget(timelinesAndDetails);
  auto* bottom = new QWidget(splitter);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(4, 4, 4, 4);
  alignmentBar_ = new AlignmentBar(a_, b_, bottom);
  bottomLayout->addWidget(alignmentBar_);
  bottomLayout->addWidget(differentGpusLabel(*a_, *b_, bottom));
  // The diff table, the summary of the aligned window with both verdicts, and the roofline of both runs, as
  // tabs: each gets the whole height under the timelines (the table showed two rows under the summary).
  tabs_ = new QTabWidget(bottom);
  tabs_->addTab(buildDiffPage(tabs_), tr("Diff table"));
  tabs_->addTab(buildSummaryPage(tabs_), tr("Summary"));
  roofline_ = new CompareRooflineView(a_, b_, tabs_);
  tabs_->addTab(roofline_, tr("Roofline"));
  bottomLayout->addWidget(tabs_, 1);
  splitter->addWidget(bottom);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({500, 500});
  // The roofline needs height (a log-log chart over several decades): it takes two thirds while its tab
  // shows; back on the table, the timelines get the room they had before.
  connect(tabs_, &QTabWidget::currentChanged, splitter, [this, splitter] {
    bool roofline = tabs_->currentWidget() == roofline_;
    if (roofline) {
      tableSplitSizes_ = splitter->sizes();
      int total = tableSplitSizes_.value(0) + tableSplitSizes_.value(1);
      splitter->setSizes({total / 3, total - total / 3});
    } else if (!tableSplitSizes_.isEmpty()) {
      splitter->setSizes(tableSplitSizes_);
    }
  });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(alignmentBar_, &AlignmentBar::edited, this, &CompareView::applyAlignmentControls);
  connect(sessionA_, &TraceSession::viewRangeChanged, this, [this] { syncFrom(sessionA_); });
  connect(sessionB_, &TraceSession::viewRangeChanged, this, [this] { syncFrom(sessionB_); });
  connect(sessionA_, &TraceSession::selectionChanged, this, [this] { showDetailsOf(sessionA_); });
  connect(sessionB_, &TraceSession::selectionChanged, this, [this] { showDetailsOf(sessionB_); });

  auto [anchorA, anchorB] = defaultAnchors(*a_, *b_);
  if (!setAlignment(anchorA, anchorB, 0)) setAlignment({}, {}, 0);
}

CompareView::~CompareView() {
  syncing_ = true;  // no more view syncing while the timelines go
  qDeleteAll(findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
}

QWidget* CompareView::buildTimelines() {
  auto* timelines = new QSplitter(Qt::Vertical, this);
  timelines->setHandleWidth(kSplitterHandle);
  auto addRun = [&](const QString& letter, const Trace& trace, TraceSession* session) {
    auto* box = new QWidget(timelines);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* title = new QLabel(runTitle(letter, trace), box);
    title->setToolTip(QString::fromStdString(trace.path()));
    title->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(title);
    auto* view = new TimelineView(session, box);
    // The find bar lists a diff row's instances; it keeps its own height and leaves the rest to the rows.
    view->findBar()->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(view, 1);
    timelines->addWidget(box);
    return view;
  };
  timelineA_ = addRun(QStringLiteral("A"), *a_, sessionA_);
  timelineB_ = addRun(QStringLiteral("B"), *b_, sessionB_);
  // What differs between two runs is mostly on the GPU: each process's CPU rows fold into one summary
  // strip, so that the GPU rows are in view; a click on a header opens them.
  for (TimelineView* view : {timelineA_, timelineB_}) {
    TimelineCanvas* canvas = view->canvas();
    const auto& rows = canvas->layout().rows();
    for (int row = 0; row < static_cast<int>(rows.size()); ++row)
      if (rows[static_cast<size_t>(row)].kind == RowKind::Process && !rows[static_cast<size_t>(row)].collapsed)
        canvas->toggleRow(row);
  }
  return timelines;
}

QWidget* CompareView::buildDetails() {
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 2, 0, 0);
  // Names the run whose selection is shown; the panel itself says what to click while nothing is selected.
  detailsTitle_ = new QLabel(box);
  detailsTitle_->hide();
  detailsTitle_->setContentsMargins(4, 2, 4, 2);
  layout->addWidget(detailsTitle_);
  detailsStack_ = new QStackedWidget(box);
  detailsA_ = new DetailsPanel(sessionA_, detailsStack_);
  detailsB_ = new DetailsPanel(sessionB_, detailsStack_);
  detailsStack_->addWidget(detailsA_);
  detailsStack_->addWidget(detailsB_);
  layout->addWidget(detailsStack_, 1);
  return box;
}

DetailsPanel* CompareView::shownDetails() const { return qobject_cast<DetailsPanel*>(detailsStack_->currentWidget()); }

void CompareView::showDetailsOf(TraceSession* session) {
  if (!session->hasSelection()) return;  // keep showing the other run's selection, if any
  const bool inA = session == sessionA_;
  detailsStack_->setCurrentWidget(inA ? detailsA_ : detailsB_);
  const Trace& trace = inA ? *a_ : *b_;
  detailsTitle_->setText(tr("Selected in %1").arg(runTitle(inA ? QStringLiteral("A") : QStringLiteral("B"), trace)));
  detailsTitle_->show();
}

QWidget* CompareView::buildSummaryPage(QWidget* parent) {
  // Scrolled rather than squeezed: the summary's two halves side by side never widen the window.
  auto* scroll = new QScrollArea(parent);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* page = new QWidget(scroll);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 4, 0, 0);
  summary_ = new CompareSummary(page);
  layout->addWidget(summary_);
  // Both runs' bottleneck verdicts, side by side, under the numbers.
  layout->addWidget(
      new CompareVerdictsView(QString::fromStdString(a_->path()), QString::fromStdString(b_->path()), page));
  layout->addStretch(1);
  scroll->setWidget(page);
  return scroll;
}

QWidget* CompareView::buildDiffPage(QWidget* parent) {
  auto* diffPage = new QWidget(parent);
  auto* diffLayout = new QVBoxLayout(diffPage);
  diffLayout->setContentsMargins(0, 4, 0, 0);
  auto* tableBar = new QHBoxLayout;
  byCombo_ = new QComboBox(diffPage);
  byCombo_->addItem(tr("Kernels"), static_cast<int>(DiffBy::Kernel));
  byCombo_->addItem(tr("Kernels (demangled names)"), static_cast<int>(DiffBy::DemangledKernel));
  byCombo_->addItem(tr("NVTX ranges"), static_cast<int>(DiffBy::Nvtx));
  auto* filter = new QLineEdit(diffPage);
  filter->setPlaceholderText(tr("Filter names"));
  filter->setClearButtonEnabled(true);
  tableBar->addWidget(new QLabel(tr("Compare"), diffPage));
  tableBar->addWidget(byCombo_);
  tableBar->addWidget(filter, 1);
  diffLayout->addLayout(tableBar);
  diffNote_ = new QLabel(diffPage);
  diffNote_->setStyleSheet(QStringLiteral("color: #c62828"));
  diffNote_->hide();
  diffLayout->addWidget(diffNote_);

  model_ = new RunDiffModel(this);
  proxy_ = createTableProxy(model_, RunDiffModel::NameColumn, this);
  table_ = new QTreeView(diffPage);
  table_->setModel(proxy_);
  table_->setRootIsDecorated(false);
  table_->setUniformRowHeights(true);
  table_->setAlternatingRowColors(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // the diff's own order (largest change first) until the user sorts
  table_->header()->setStretchLastSection(false);
  table_->viewport()->installEventFilter(this);
  diffLayout->addWidget(table_, 1);
  connect(filter, &QLineEdit::textChanged, this, [this](const QString& text) { proxy_->setFilter(text, false); });
  connect(byCombo_, &QComboBox::currentIndexChanged, this,
          [this] { setDiffBy(static_cast<DiffBy>(byCombo_->currentData().toInt())); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) showRow(proxy_->mapToSource(current).row());
  });
  return diffPage;
}

void CompareView::recomputeDiff() {
  DiffBy by = diff_.by;
  std::vector<DiffRow> rows;
  // A file whose NVTX table cannot be read gives an empty table and says why, instead of failing.
  try {
    rows = matchByName(diffSides(*a_, by, windowOf(true)), diffSides(*b_, by, windowOf(false)));
    diff_.summary = compareTotals(runTotals(*a_, windowOf(true)), runTotals(*b_, windowOf(false)));
    // The memory peaks are the whole runs', whatever the window: a peak is a property of the run.
    for (SummaryMetric& peak : memoryPeakMetrics(*a_, *b_)) diff_.summary.push_back(std::move(peak));
    diffNote_->hide();
  } catch (const TraceError& error) {
    diffNote_->setText(QString::fromUtf8(error.what()));
    diffNote_->show();
  }
  diff_.rows = rows;
  model_->setRows(std::move(rows), by);
  for (int column = 0; column < model_->columnCount(); ++column) table_->resizeColumnToContents(column);
  nameContentWidth_ = table_->columnWidth(RunDiffModel::NameColumn);
  fitNameColumn();

  summary_->setContents(windowText(), diff_.summary);
}

bool CompareView::eventFilter(QObject* watched, QEvent* event) {
  if (table_ && watched == table_->viewport() && event->type() == QEvent::Resize) fitNameColumn();
  return QWidget::eventFilter(watched, event);
}

void CompareView::fitNameColumn() {
  constexpr int kNameColumnFloor = 240;
  int numbers = 0;
  for (int column = 0; column < model_->columnCount(); ++column)
    if (column != RunDiffModel::NameColumn && !table_->isColumnHidden(column)) numbers += table_->columnWidth(column);
  int room = table_->viewport()->width() - numbers;
  table_->setColumnWidth(RunDiffModel::NameColumn, std::max(room, std::min(nameContentWidth_, kNameColumnFloor)));
}

void CompareView::setDiffBy(DiffBy by) {
  if (by == diff_.by && !diff_.rows.empty()) return;
  diff_.by = by;
  int index = byCombo_->findData(static_cast<int>(by));
  if (index != byCombo_->currentIndex()) {
    QSignalBlocker block(byCombo_);
    byCombo_->setCurrentIndex(index);
  }
  recomputeDiff();
}

void CompareView::applyAlignmentControls() {
  const AlignmentAnchor anchorA = alignmentBar_->anchorA();
  const AlignmentAnchor anchorB = alignmentBar_->anchorB();
  const TimeNs shift = alignmentBar_->shift();
  auto aligned = alignRuns(*a_, anchorA, *b_, anchorB, shift);
  if (!aligned) {
    const bool inA = anchorTime(*a_, anchorA).has_value();
    alignmentBar_->showRefused(inA ? anchorB : anchorA, !inA);
    return;
  }
  anchorA_ = anchorA;
  anchorB_ = anchorB;
  manualShift_ = shift;
  alignment_ = *aligned;
  if (auto window = alignedWindow(*a_, anchorA, *b_, anchorB)) window_ = *window;
  alignmentBar_->showApplied(alignmentText());
  recomputeDiff();
  showWindow();
}

std::optional<TimeInterval> CompareView::windowOf(bool a) const {
  if (anchorA_.kind == AlignmentAnchor::Kind::Start) return std::nullopt;
  return a ? window_.a : window_.b;
}

void CompareView::showWindow() {
  const TimeInterval view = window_.viewOfA();
  sessionA_->setViewRange(view.start, view.end);
  syncFrom(sessionA_);  // also when A's range did not change but the alignment did
}

QString CompareView::windowText() const {
  auto span = [](const TimeInterval& w) { return durationText(w.length()); };
  if (anchorA_.kind == AlignmentAnchor::Kind::Start)
    return tr("Summary of the whole runs: A %1, B %2").arg(span(window_.a), span(window_.b));
  return tr("Aligned window: %1, A %2, B %3")
      .arg(QString::fromStdString(window_.label), span(window_.a), span(window_.b));
}

bool CompareView::setAlignment(const AlignmentAnchor& anchorA, const AlignmentAnchor& anchorB, TimeNs manualShift) {
  AlignmentAnchor inB{anchorA.kind, anchorA.name, anchorB.index};
  if (!alignRuns(*a_, anchorA, *b_, inB, manualShift)) return false;
  alignmentBar_->setControls(anchorA, anchorB, manualShift);
  // The controls hold the shift in whole nanoseconds (3 decimals of us), so they reproduce it exactly.
  applyAlignmentControls();
  return true;
}

QString CompareView::alignmentText() const {
  QString text = anchorA_.kind == AlignmentAnchor::Kind::Start
                     ? tr("B's start on A's start")
                     : tr("B's %1 on A's %2").arg(anchorText(anchorB_), anchorText(anchorA_));
  if (manualShift_ != 0) text += tr(", then B shifted %1").arg(signedDuration(static_cast<double>(manualShift_)));
  // One sign only: "A time = B time - 9.75 us", never "B time + -9.75 us" (formatDuration signs negatives).
  TimeNs offset = alignment_.offset;
  QString magnitude = durationText(offset < 0 ? -offset : offset);
  return text + (offset < 0 ? tr(" (A time = B time - %1)") : tr(" (A time = B time + %1)")).arg(magnitude);
}

void CompareView::syncFrom(TraceSession* source) {
  if (syncing_) return;
  syncing_ = true;
  if (source == sessionA_) {
    sessionB_->setViewRange(alignment_.aToB(sessionA_->viewStart()), alignment_.aToB(sessionA_->viewEnd()));
  } else {
    sessionA_->setViewRange(alignment_.bToA(sessionB_->viewStart()), alignment_.bToA(sessionB_->viewEnd()));
  }
  syncing_ = false;
}

void CompareView::highlightIn(TraceSession* session, TimelineView* view, const DiffRow& row, bool focus) {
  std::vector<EventRef> instances;
  try {
    instances = rowInstances(*session->trace(), row, diff_.by);
  } catch (const TraceError&) {
    // A file that cannot say which rows have this demangled name: nothing to select.
  }
  QString name = QString::fromStdString(row.timelineName);
  view->findBar()->setPattern(QStringLiteral("^%1$").arg(QRegularExpression::escape(name)), true);
  view->findBar()->show();
  if (instances.empty()) {
    session->select(std::nullopt);
    return;
  }
  // The instance in the aligned window (the step the table compares), not the warm-up's first one.
  const Trace& trace = *session->trace();
  EventRef shown = instances.front();
  if (std::optional<TimeInterval> window = windowOf(session == sessionA_)) {
    auto inWindow = std::find_if(instances.begin(), instances.end(), [&](EventRef event) {
      return window->overlaps(trace.start(event), trace.end(event));
    });
    if (inWindow != instances.end()) shown = *inWindow;
  }
  if (focus) {
    session->focusEvent(shown);
  } else {
    session->select(shown);
  }
}

void CompareView::showRow(int row) {
  if (row < 0 || row >= model_->rowCount()) return;
  const DiffRow& diffRow = model_->rowAt(row);
  bool inA = diffRow.presence != DiffPresence::OnlyB;
  // Select in the follower first, then focus the leader: its view change moves the follower with it.
  highlightIn(inA ? sessionB_ : sessionA_, inA ? timelineB_ : timelineA_, diffRow, false);
  highlightIn(inA ? sessionA_ : sessionB_, inA ? timelineA_ : timelineB_, diffRow, true);
  showBothSelections();
}

void CompareView::showBothSelections() {
  // The two instances sit at different times of the aligned step (B's kernels ran longer or shorter): widen
  // the shared view, in A's time, to hold both, so neither selected kernel is off-screen.
  const auto& a = sessionA_->selection();
  const auto& b = sessionB_->selection();
  if (!a || !b) return;
  TimeNs start = std::min(a_->start(*a), alignment_.bToA(b_->start(*b)));
  TimeNs end = std::max(a_->end(*a), alignment_.bToA(b_->end(*b)));
  if (start >= sessionA_->viewStart() && end <= sessionA_->viewEnd()) return;
  TimeNs margin = std::max<TimeNs>((end - start) / 10, 100);
  sessionA_->setViewRange(start - margin, end + margin);  // B follows through syncFrom
}

}  // namespace gpuscope::ui
