#include "ui/compare/compare_view.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <set>

#include "core/error.h"
#include "core/model/trace_summary.h"
#include "ui/analysis/compare_verdicts_view.h"
#include "ui/compare/compare_roofline_view.h"
#include "ui/compare/run_diff_model.h"
#include "ui/details/details_panel.h"
#include "ui/tables/table_proxy.h"
#include "ui/text.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_find_bar.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

QString runTitle(const QString& letter, const Trace& trace) {
  QString file = QFileInfo(QString::fromStdString(trace.path())).fileName();
  return QStringLiteral("<b>%1</b> %2").arg(letter, file.toHtmlEscaped());
}

QString metricValue(const SummaryMetric& metric, double value) {
  if (metric.unit == "ns") return durationText(static_cast<TimeNs>(std::llround(value)));
  if (metric.unit == "bytes") return bytesText(static_cast<int64_t>(std::llround(value)));
  if (metric.unit == "%") return QString::number(value, 'f', metric.decimals) + QStringLiteral(" %");
  return QString::number(static_cast<qlonglong>(std::llround(value)));
}

QString metricDelta(const SummaryMetric& metric) {
  double delta = metric.delta();
  if (metric.unit == "ns") return signedDuration(delta);
  QString sign = delta > 0 ? QStringLiteral("+") : delta < 0 ? QStringLiteral("-") : QString();
  if (metric.unit == "bytes") return sign + bytesText(static_cast<int64_t>(std::llround(std::abs(delta))));
  if (metric.unit == "%") return sign + QString::number(std::abs(delta), 'f', metric.decimals) + QStringLiteral(" pt");
  return sign + QString::number(static_cast<qlonglong>(std::llround(std::abs(delta))));
}

QString anchorText(const AlignmentAnchor& anchor) {
  if (anchor.kind == AlignmentAnchor::Kind::Start) return QStringLiteral("start");
  QString kind = anchor.kind == AlignmentAnchor::Kind::Kernel ? QStringLiteral("kernel") : QStringLiteral("range");
  return QStringLiteral("%1 \"%2\" #%3").arg(kind, QString::fromStdString(anchor.name)).arg(anchor.index + 1);
}

// Distinct kernel short names or NVTX texts of a trace.
void collectNames(const Trace& trace, TrackKind kind, std::set<std::string>& names) {
  std::vector<bool> seen(trace.stringCount());
  for (const auto& track : trace.tracks()) {
    if (track.kind != kind) continue;
    for (const auto& lane : track.lanes)
      for (StringId id : lane.name)
        if (id < seen.size() && !seen[id]) seen[id] = true;
  }
  for (StringId id = 0; id < seen.size(); ++id)
    if (seen[id]) names.insert(trace.string(id));
}

}  // namespace

CompareView::CompareView(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QWidget* parent)
    : QWidget(parent), a_(std::move(a)), b_(std::move(b)) {
  sessionA_ = new TraceSession(this);
  sessionB_ = new TraceSession(this);
  sessionA_->setTrace(a_);
  sessionB_->setTrace(b_);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  // The details of what was clicked sit right of both timelines, as in the main window.
  auto* timelinesAndDetails = new QSplitter(Qt::Horizontal, splitter);
  timelinesAndDetails->addWidget(buildTimelines());
  timelinesAndDetails->addWidget(buildDetails());
  timelinesAndDetails->setStretchFactor(0, 4);
  timelinesAndDetails->setStretchFactor(1, 1);
  timelinesAndDetails->setSizes({1100, 380});
  splitter->addWidget(timelinesAndDetails);
  auto* bottom = new QWidget(splitter);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(4, 4, 4, 4);
  bottomLayout->addWidget(buildAlignmentBar());
  bottomLayout->addWidget(buildSummary());

  // The diff table and the roofline of both runs, side by side as tabs.
  tabs_ = new QTabWidget(bottom);
  auto* diffPage = new QWidget(tabs_);
  auto* diffLayout = new QVBoxLayout(diffPage);
  diffLayout->setContentsMargins(0, 4, 0, 0);
  // Both runs' bottleneck verdicts, side by side, above the table (the roofline tab keeps its height).
  diffLayout->addWidget(
      new CompareVerdictsView(QString::fromStdString(a_->path()), QString::fromStdString(b_->path()), diffPage));
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
  diffLayout->addWidget(table_, 1);
  tabs_->addTab(diffPage, tr("Diff table"));
  roofline_ = new CompareRooflineView(a_, b_, tabs_);
  tabs_->addTab(roofline_, tr("Roofline"));
  bottomLayout->addWidget(tabs_, 1);
  splitter->addWidget(bottom);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({600, 400});
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

  connect(filter, &QLineEdit::textChanged, this, [this](const QString& text) { proxy_->setFilter(text, false); });
  connect(byCombo_, &QComboBox::currentIndexChanged, this,
          [this] { setDiffBy(static_cast<DiffBy>(byCombo_->currentData().toInt())); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) showRow(proxy_->mapToSource(current).row());
  });
  connect(sessionA_, &TraceSession::viewRangeChanged, this, [this] { syncFrom(sessionA_); });
  connect(sessionB_, &TraceSession::viewRangeChanged, this, [this] { syncFrom(sessionB_); });
  connect(sessionA_, &TraceSession::selectionChanged, this, [this] { showDetailsOf(sessionA_); });
  connect(sessionB_, &TraceSession::selectionChanged, this, [this] { showDetailsOf(sessionB_); });

  fillAnchorNames();
  auto [anchorA, anchorB] = defaultAnchors(*a_, *b_);
  if (!setAlignment(anchorA, anchorB, 0)) setAlignment({}, {}, 0);
}

CompareView::~CompareView() {
  syncing_ = true;  // no more view syncing while the timelines go
  qDeleteAll(findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
}

QWidget* CompareView::buildTimelines() {
  auto* timelines = new QSplitter(Qt::Vertical, this);
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
  if (!session->selection()) return;  // keep showing the other run's selection, if any
  const bool inA = session == sessionA_;
  detailsStack_->setCurrentWidget(inA ? detailsA_ : detailsB_);
  const Trace& trace = inA ? *a_ : *b_;
  detailsTitle_->setText(tr("Selected in %1").arg(runTitle(inA ? QStringLiteral("A") : QStringLiteral("B"), trace)));
  detailsTitle_->show();
}

QWidget* CompareView::buildAlignmentBar() {
  auto* bar = new QFrame(this);
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Align B on A at"), bar));
  anchorKind_ = new QComboBox(bar);
  anchorKind_->addItem(tr("their starts"), static_cast<int>(AlignmentAnchor::Kind::Start));
  anchorKind_->addItem(tr("NVTX range"), static_cast<int>(AlignmentAnchor::Kind::NvtxRange));
  anchorKind_->addItem(tr("kernel"), static_cast<int>(AlignmentAnchor::Kind::Kernel));
  layout->addWidget(anchorKind_);
  anchorName_ = new QComboBox(bar);
  anchorName_->setEditable(true);
  anchorName_->setInsertPolicy(QComboBox::NoInsert);
  anchorName_->setMinimumContentsLength(18);
  anchorName_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  layout->addWidget(anchorName_);
  layout->addWidget(new QLabel(tr("# in A"), bar));
  indexA_ = new QSpinBox(bar);
  indexA_->setRange(1, 1 << 30);
  indexA_->setToolTip(tr("Which instance in A, 1 being the first"));
  layout->addWidget(indexA_);
  layout->addWidget(new QLabel(tr("# in B"), bar));
  indexB_ = new QSpinBox(bar);
  indexB_->setRange(1, 1 << 30);
  indexB_->setToolTip(tr("Which instance in B, 1 being the first"));
  layout->addWidget(indexB_);
  layout->addWidget(new QLabel(tr("then shift B by"), bar));
  shiftUs_ = new QDoubleSpinBox(bar);
  shiftUs_->setRange(-1e9, 1e9);
  shiftUs_->setDecimals(3);
  shiftUs_->setSuffix(tr(" us"));
  shiftUs_->setToolTip(tr("Positive values move B later on A's clock"));
  layout->addWidget(shiftUs_);
  alignmentLabel_ = new QLabel(bar);
  alignmentLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(alignmentLabel_, 1);

  auto changed = [this] {
    if (!updatingControls_) applyAlignmentControls();
  };
  connect(anchorKind_, &QComboBox::currentIndexChanged, this, [this, changed] {
    if (updatingControls_) return;
    fillAnchorNames();
    changed();
  });
  connect(anchorName_, &QComboBox::currentTextChanged, this, changed);
  connect(indexA_, &QSpinBox::valueChanged, this, changed);
  connect(indexB_, &QSpinBox::valueChanged, this, changed);
  connect(shiftUs_, &QDoubleSpinBox::valueChanged, this, changed);
  return bar;
}

QWidget* CompareView::buildSummary() {
  auto* frame = new QFrame(this);
  frame->setFrameShape(QFrame::StyledPanel);
  auto* layout = new QVBoxLayout(frame);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(2);
  windowLabel_ = new QLabel(frame);
  windowLabel_->setObjectName(QStringLiteral("summaryWindow"));
  windowLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(windowLabel_);
  auto* grid = new QWidget(frame);
  layout->addWidget(grid);
  summaryGrid_ = new QGridLayout(grid);
  summaryGrid_->setContentsMargins(0, 0, 0, 0);
  summaryGrid_->setHorizontalSpacing(14);
  summaryGrid_->setVerticalSpacing(1);
  return frame;
}

void CompareView::recomputeDiff() {
  DiffBy by = diff_.by;
  std::vector<DiffRow> rows;
  // A file whose NVTX table cannot be read gives an empty table and says why, instead of failing.
  try {
    rows = matchByName(diffSides(*a_, by, windowOf(true)), diffSides(*b_, by, windowOf(false)));
    diff_.summary = compareTotals(runTotals(*a_, windowOf(true)), runTotals(*b_, windowOf(false)));
    diffNote_->hide();
  } catch (const TraceError& error) {
    diffNote_->setText(QString::fromUtf8(error.what()));
    diffNote_->show();
  }
  diff_.rows = rows;
  model_->setRows(std::move(rows), by);
  table_->resizeColumnToContents(RunDiffModel::NameColumn);
  table_->setColumnWidth(RunDiffModel::NameColumn, std::min(table_->columnWidth(RunDiffModel::NameColumn), 480));

  windowLabel_->setText(windowText());
  // The summary: two halves side by side, each "metric | A | B | delta | delta %".
  while (QLayoutItem* item = summaryGrid_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  auto* parent = summaryGrid_->parentWidget();
  size_t half = (diff_.summary.size() + 1) / 2;
  for (int side = 0; side < 2; ++side) {
    int column = side * 6;
    const QStringList headers = {QString(), tr("A"), tr("B"), tr("Δ"), tr("Δ %")};
    for (int h = 0; h < headers.size(); ++h) {
      auto* header = new QLabel(QStringLiteral("<b>%1</b>").arg(headers[h]), parent);
      summaryGrid_->addWidget(header, 0, column + h, h == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
  }
  for (size_t i = 0; i < diff_.summary.size(); ++i) {
    const SummaryMetric& metric = diff_.summary[i];
    int row = static_cast<int>(i % half) + 1;
    int column = static_cast<int>(i / half) * 6;
    auto percent = metric.deltaPercent();
    QStringList cells = {QString::fromStdString(metric.name), metricValue(metric, metric.a),
                         metricValue(metric, metric.b), metricDelta(metric),
                         percent ? QString::number(*percent, 'f', 1) + QStringLiteral(" %") : QString()};
    for (int c = 0; c < cells.size(); ++c) {
      auto* label = new QLabel(cells[c], parent);
      label->setObjectName(QStringLiteral("summary_%1_%2").arg(i).arg(c));
      summaryGrid_->addWidget(label, row, column + c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
  }
  summaryGrid_->setColumnStretch(5, 1);
  summaryGrid_->setColumnStretch(11, 1);
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

void CompareView::fillAnchorNames() {
  auto kind = static_cast<AlignmentAnchor::Kind>(anchorKind_->currentData().toInt());
  bool wasUpdating = updatingControls_;
  updatingControls_ = true;
  QString current = anchorName_->currentText();
  anchorName_->clear();
  bool named = kind != AlignmentAnchor::Kind::Start;
  anchorName_->setEnabled(named);
  indexA_->setEnabled(named);
  indexB_->setEnabled(named);
  if (named) {
    std::set<std::string> names;
    TrackKind trackKind = kind == AlignmentAnchor::Kind::Kernel ? TrackKind::GpuKernels : TrackKind::Nvtx;
    collectNames(*a_, trackKind, names);
    collectNames(*b_, trackKind, names);
    for (const auto& name : names) anchorName_->addItem(QString::fromStdString(name));
    int keep = anchorName_->findText(current);
    if (keep >= 0) anchorName_->setCurrentIndex(keep);
  }
  updatingControls_ = wasUpdating;
}

void CompareView::applyAlignmentControls() {
  AlignmentAnchor anchorA;
  anchorA.kind = static_cast<AlignmentAnchor::Kind>(anchorKind_->currentData().toInt());
  if (anchorA.kind != AlignmentAnchor::Kind::Start) anchorA.name = anchorName_->currentText().toStdString();
  AlignmentAnchor anchorB = anchorA;
  // The boxes count from 1, as people do; anchors from 0.
  anchorA.index = static_cast<size_t>(indexA_->value() - 1);
  anchorB.index = static_cast<size_t>(indexB_->value() - 1);
  auto shift = static_cast<TimeNs>(std::llround(shiftUs_->value() * 1000.0));
  auto aligned = alignRuns(*a_, anchorA, *b_, anchorB, shift);
  if (!aligned) {
    bool inA = anchorTime(*a_, anchorA).has_value();
    alignmentLabel_->setStyleSheet(QStringLiteral("color: #c62828"));
    alignmentLabel_->setText(tr("No %1 in %2; keeping the previous alignment")
                                 .arg(anchorText(inA ? anchorB : anchorA), inA ? tr("B") : tr("A")));
    return;
  }
  anchorA_ = anchorA;
  anchorB_ = anchorB;
  manualShift_ = shift;
  alignment_ = *aligned;
  if (auto window = alignedWindow(*a_, anchorA, *b_, anchorB)) window_ = *window;
  alignmentLabel_->setStyleSheet(QString());
  alignmentLabel_->setText(alignmentText());
  recomputeDiff();
  showWindow();
}

std::optional<TimeWindow> CompareView::windowOf(bool a) const {
  if (anchorA_.kind == AlignmentAnchor::Kind::Start) return std::nullopt;
  return a ? window_.a : window_.b;
}

void CompareView::showWindow() {
  const TimeWindow view = window_.viewOfA();
  sessionA_->setViewRange(view.start, view.end);
  syncFrom(sessionA_);  // also when A's range did not change but the alignment did
}

QString CompareView::windowText() const {
  auto span = [](const TimeWindow& w) { return durationText(w.span()); };
  if (anchorA_.kind == AlignmentAnchor::Kind::Start)
    return tr("Summary of the whole runs: A %1, B %2").arg(span(window_.a), span(window_.b));
  return tr("Aligned window: %1, A %2, B %3")
      .arg(QString::fromStdString(window_.label), span(window_.a), span(window_.b));
}

bool CompareView::setAlignment(const AlignmentAnchor& anchorA, const AlignmentAnchor& anchorB, TimeNs manualShift) {
  AlignmentAnchor inB{anchorA.kind, anchorA.name, anchorB.index};
  if (!alignRuns(*a_, anchorA, *b_, inB, manualShift)) return false;
  updatingControls_ = true;
  anchorKind_->setCurrentIndex(anchorKind_->findData(static_cast<int>(anchorA.kind)));
  fillAnchorNames();
  if (anchorA.kind != AlignmentAnchor::Kind::Start) anchorName_->setCurrentText(QString::fromStdString(anchorA.name));
  indexA_->setValue(static_cast<int>(std::min<size_t>(anchorA.index + 1, 1u << 30)));
  indexB_->setValue(static_cast<int>(std::min<size_t>(anchorB.index + 1, 1u << 30)));
  shiftUs_->setValue(static_cast<double>(manualShift) / 1000.0);
  updatingControls_ = false;
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
  if (focus) {
    session->focusEvent(instances.front());
  } else {
    session->select(instances.front());
  }
}

void CompareView::showRow(int row) {
  if (row < 0 || row >= model_->rowCount()) return;
  const DiffRow& diffRow = model_->rowAt(row);
  bool inA = diffRow.presence != DiffPresence::OnlyB;
  // Select in the follower first, then focus the leader: its view change moves the follower with it.
  highlightIn(inA ? sessionB_ : sessionA_, inA ? timelineB_ : timelineA_, diffRow, false);
  highlightIn(inA ? sessionA_ : sessionB_, inA ? timelineA_ : timelineB_, diffRow, true);
}

}  // namespace gpuscope::ui
