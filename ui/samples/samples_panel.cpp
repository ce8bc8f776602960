#include "ui/samples/samples_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "core/open/open_trace.h"
#include "core/schema/table_names.h"
#include "ui/samples/flame_graph_view.h"
#include "ui/samples/sample_scope.h"
#include "ui/samples/sample_tree_model.h"
#include "ui/session/trace_session.h"
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
  model_ = new SampleTreeModel(this);
  tree_ = new QTreeView(this);
  tree_->setObjectName(QStringLiteral("samplesTree"));
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setSortingEnabled(true);
  tree_->sortByColumn(SampleTreeModel::Total, Qt::DescendingOrder);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(SampleTreeModel::Function, QHeaderView::Stretch);
  flame_ = new FlameGraphView(this);
  flame_->setObjectName(QStringLiteral("samplesFlameGraph"));

  auto* top = new QHBoxLayout;
  top->addWidget(scope_, 1);
  top->addWidget(new QLabel(tr("View:"), this));
  top->addWidget(mode_);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(tree_);
  auto* flameScroll = new QScrollArea(this);
  flameScroll->setWidgetResizable(true);
  flameScroll->setWidget(flame_);
  split->addWidget(flameScroll);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setHandleWidth(6);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(split, 1);

  connect(mode_, &QComboBox::currentIndexChanged, this, &SamplesPanel::refresh);
  connect(&reader_, &QFutureWatcher<SampleRead>::finished, this, &SamplesPanel::onSamplesRead);
  connect(session_, &TraceSession::traceChanged, this, &SamplesPanel::onTraceChanged);
  connect(session_, &TraceSession::rangeChanged, this, &SamplesPanel::refresh);
  connect(session_, &TraceSession::selectionChanged, this, &SamplesPanel::refresh);
  connect(session_, &TraceSession::timeBaseChanged, this, &SamplesPanel::refresh);
  onTraceChanged();
}

SamplesPanel::~SamplesPanel() { reader_.waitForFinished(); }

QString SamplesPanel::scopeText() const { return scope_->text(); }

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
  if (!readStarted_) startReading();
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
    model_->setSamples(nullptr, SampleViewMode::BottomUp);
    flame_->setSamples(nullptr);
    return;
  }
  const Trace& trace = *session_->trace();
  SampleScope scope =
      sampleScope(trace, {session_->rangeStart(), session_->rangeEnd()}, session_->selection(), session_->timeOrigin());
  auto selected = std::make_shared<const CpuSamples>(selectSamples(*all_, scope.filter));
  scope_->setText(
      tr("%1 of %2 CPU samples: %3").arg(countText(selected->size()), countText(all_->size()), scope.description));
  auto mode = static_cast<SampleViewMode>(mode_->currentData().toInt());
  model_->setSamples(selected, mode);
  model_->sort(tree_->header()->sortIndicatorSection(), tree_->header()->sortIndicatorOrder());
  if (mode != SampleViewMode::Flat && model_->rowCount() > 0) tree_->expand(model_->index(0, 0));
  flame_->setSamples(selected);
}

}  // namespace gpuscope::ui
