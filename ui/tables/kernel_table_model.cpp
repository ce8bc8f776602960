#include "ui/tables/kernel_table_model.h"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <map>
#include <utility>

#include "core/metrics/gpu_metrics.h"
#include "core/metrics/sampled_means.h"
#include "core/model/trace_summary.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

KernelSortKey sortKeyOf(int column) {
  switch (column) {
    case KernelTableModel::NameColumn:
      return KernelSortKey::Name;
    case KernelTableModel::DemangledColumn:
      return KernelSortKey::DemangledName;
    case KernelTableModel::DurationColumn:
      return KernelSortKey::Duration;
    case KernelTableModel::DeviceColumn:
      return KernelSortKey::Device;
    case KernelTableModel::ContextColumn:
      return KernelSortKey::Context;
    case KernelTableModel::StreamColumn:
      return KernelSortKey::Stream;
    case KernelTableModel::CorrelationColumn:
      return KernelSortKey::Correlation;
    default:
      return KernelSortKey::Start;
  }
}

// Everything one query needs, copied, so that it can run on a worker while the model changes.
struct KernelRowsRequest {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const KernelIndex> index;  // null: build it
  QString namePattern;                       // a valid, case-insensitive expression; empty: every name
  KernelRowQuery query;
  bool groups = false;
  std::shared_ptr<const std::vector<int64_t>> trackRanks;  // set: order by rank (descending: query's), then start
};

// By track: the rank of the process each GPU track's work belongs to (-1: none); null when no process has a rank.
std::shared_ptr<const std::vector<int64_t>> ranksOfTracks(const Trace& trace) {
  std::map<int64_t, int64_t> rankOfProcess;
  for (const ProcessInfo& process : trace.processes()) {
    if (process.rank) rankOfProcess[process.globalPid] = *process.rank;
  }
  if (rankOfProcess.empty()) return nullptr;
  auto ranks = std::make_shared<std::vector<int64_t>>(trace.tracks().size(), -1);
  for (size_t t = 0; t < ranks->size(); ++t) {
    const Track& track = trace.tracks()[t];
    auto it = rankOfProcess.find(track.globalTid);  // a GPU track's globalTid is its process' globalPid
    if (track.isGpu() && it != rankOfProcess.end()) (*ranks)[t] = it->second;
  }
  return ranks;
}

// By StringId: 1 for each kernel name FILTER finds (the expression runs once per distinct name, not per row).
std::vector<uint8_t> acceptedNames(const Trace& trace, const KernelIndex& index, const QRegularExpression& filter) {
  std::vector<uint8_t> accepted(trace.stringCount(), 0);
  for (StringId id : index.names())
    accepted[id] = filter.match(QString::fromStdString(trace.string(id))).hasMatch() ? 1 : 0;
  return accepted;
}

KernelRowsResult runKernelRows(KernelRowsRequest request) {
  const Trace& trace = *request.trace;
  KernelRowsResult result;
  result.trace = request.trace;
  result.index = request.index ? request.index : std::make_shared<const KernelIndex>(trace);
  if (!request.namePattern.isEmpty()) {
    // Its own expression: one shared with the GUI thread would compile under a lock on first use.
    QRegularExpression filter(request.namePattern, QRegularExpression::CaseInsensitiveOption);
    request.query.acceptedNames = acceptedNames(trace, *result.index, filter);
  }
  if (request.trackRanks) {
    // By rank, each rank's kernels in time order: the query's start order, stably sorted by rank.
    const bool descending = std::exchange(request.query.descending, false);
    std::vector<uint32_t> rows = selectKernelRows(trace, *result.index, request.query);
    const std::vector<int64_t>& ranks = *request.trackRanks;
    auto rankOf = [&](uint32_t row) { return ranks[result.index->event(row).track]; };
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
      return descending ? rankOf(a) > rankOf(b) : rankOf(a) < rankOf(b);
    });
    result.rows = std::make_shared<const std::vector<uint32_t>>(std::move(rows));
  } else if (request.query.isEverythingByStart()) {
    // Shares the index's own time order: no copy of a row per kernel.
    result.rows = std::shared_ptr<const std::vector<uint32_t>>(result.index, &result.index->byStart());
  } else {
    result.rows = std::make_shared<const std::vector<uint32_t>>(selectKernelRows(trace, *result.index, request.query));
  }
  if (request.groups)
    result.groups = summarizeKernelRange(trace, *result.index, request.query.range, KernelGrouping::DemangledName);
  return result;
}

}  // namespace

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {
  connect(&watcher_, &QFutureWatcher<KernelRowsResult>::finished, this, &KernelTableModel::finished);
}

// A query still running keeps its own copies of what it reads; its result is simply never collected.
KernelTableModel::~KernelTableModel() = default;

void KernelTableModel::setTrace(std::shared_ptr<const Trace> trace) {
  beginResetModel();
  trace_ = std::move(trace);
  trackRanks_ = trace_ ? ranksOfTracks(*trace_) : nullptr;
  means_.clear();
  hasMetrics_ = false;
  metricsHz_ = 0;
  if (trace_) {
    const GpuMetrics& metrics = gpuMetrics(*trace_);
    hasMetrics_ = !metrics.empty();
    if (hasMetrics_) metricsHz_ = metrics.devices.front().frequencyHz();
  }
  if (sortColumn_ >= RankColumn) sortColumn_ = StartColumn;  // a column this trace may not have
  index_.reset();
  rows_.reset();
  endResetModel();
  requery(true);
}

void KernelTableModel::setTimeOrigin(TimeNs origin) {
  if (origin == origin_) return;
  origin_ = origin;
  if (rowCount() > 0) emit dataChanged(index(0, StartColumn), index(rowCount() - 1, StartColumn));
}

QString KernelTableModel::setNameFilter(const QString& text, bool regex) {
  QRegularExpression filter(regex ? text : QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption);
  QString problem;
  if (!filter.isValid()) {
    problem = filter.errorString();
    filter = QRegularExpression();
  }
  if (filter.pattern() != nameFilter_.pattern()) {
    nameFilter_ = filter;
    requery(false);
  }
  return problem;
}

void KernelTableModel::setRange(TimeInterval range) {
  if (range.empty()) range = {};
  if (range == range_) return;
  range_ = range;
  requery(true);
}

void KernelTableModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= columnCount()) column = StartColumn;
  if (column == sortColumn_ && order == sortOrder_) return;
  sortColumn_ = column;
  sortOrder_ = order;
  requery(false);
}

int KernelTableModel::totalCount() const { return index_ ? static_cast<int>(index_->size()) : 0; }

void KernelTableModel::requery(bool groups) {
  ++generation_;
  pending_ = trace_ != nullptr;
  wantGroups_ = pending_ && (wantGroups_ || groups);
  if (pending_ && !running_ && trace_->counts().kernels <= inlineLimit_) {
    apply(takeRequest()());
    return;
  }
  runNow();
}

std::function<KernelRowsResult()> KernelTableModel::takeRequest() {
  KernelRowsRequest request{trace_, index_, nameFilter_.pattern(), {}, wantGroups_, nullptr};
  request.query.range = range_;
  request.query.key = metricOf(sortColumn_) >= 0 ? KernelSortKey::Start : sortKeyOf(sortColumn_);
  request.query.descending = sortOrder_ == Qt::DescendingOrder;
  if (sortColumn_ == RankColumn) request.trackRanks = trackRanks_;
  pending_ = false;
  wantGroups_ = false;
  return [request = std::move(request)] { return runKernelRows(request); };
}

void KernelTableModel::runNow() {
  if (running_ || !pending_ || !trace_) return;
  running_ = true;
  runningGeneration_ = generation_;
  watcher_.setFuture(QtConcurrent::run(takeRequest()));
}

void KernelTableModel::finished() {
  running_ = false;
  KernelRowsResult result = watcher_.result();
  if (runningGeneration_ == generation_) {
    apply(std::move(result));
  } else if (result.trace == trace_) {
    // Superseded, but the index is this trace's whatever the query: the next run need not build it again.
    if (!index_) index_ = result.index;
    if (result.groups) wantGroups_ = true;
  }
  runNow();
}

void KernelTableModel::apply(KernelRowsResult result) {
  beginResetModel();
  index_ = std::move(result.index);
  rows_ = std::move(result.rows);
  if (metricOf(sortColumn_) >= 0) sortByMetric();
  endResetModel();
  emit rowsReady();
  if (result.groups) emit groupsReady(trace_, std::move(*result.groups));
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !rows_ ? 0 : static_cast<int>(rows_->size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return (hasRanks() ? ColumnCount : RankColumn) + (hasMetrics_ ? kMetricColumns : 0);
}

int KernelTableModel::metricOf(int column) const {
  int first = metricColumn(0);
  return first >= 0 && column >= first && column < first + kMetricColumns ? column - first : -1;
}

const std::array<float, KernelTableModel::kMetricColumns>& KernelTableModel::meansOf(uint32_t number) const {
  auto [at, added] = means_.try_emplace(number);
  if (!added) return at->second;
  EventRef event = index_->event(number);
  const Track& track = trace_->track(event.track);
  SampledMeans means = sampledMeans(gpuMetrics(*trace_), static_cast<int>(track.deviceId),
                                    TimeInterval{trace_->start(event), trace_->end(event)});
  for (int i = 0; i < kMetricColumns; ++i) {
    const SampledMean* mean = means.find(gpu_metric::kPerKernel[i]);
    at->second[static_cast<size_t>(i)] = !means.haveMetrics ? kNoMetric
                                         : means.tooShort() ? kTooShort
                                         : mean             ? static_cast<float>(mean->mean)
                                                            : kNoMetric;
  }
  return at->second;
}

void KernelTableModel::sortByMetric() {
  const int metric = metricOf(sortColumn_);
  if (metric < 0 || !rows_ || !index_) return;
  auto sorted = std::make_shared<std::vector<uint32_t>>(*rows_);
  const bool descending = sortOrder_ == Qt::DescendingOrder;
  // Kernels with a mean first (in the order asked), then those too short, then those without metrics.
  std::stable_sort(sorted->begin(), sorted->end(), [&](uint32_t a, uint32_t b) {
    float x = meansOf(a)[static_cast<size_t>(metric)];
    float y = meansOf(b)[static_cast<size_t>(metric)];
    if ((x >= 0) != (y >= 0)) return x >= 0;
    if (x < 0) return x > y;
    return descending ? x > y : x < y;
  });
  rows_ = std::move(sorted);
}

EventRef KernelTableModel::eventAt(int row) const { return index_->event(rows_->at(static_cast<size_t>(row))); }

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  EventRef event = eventAt(index.row());
  switch (role) {
    case Qt::DisplayRole:
      return displayData(event, index.column());
    case SortRole:
      return sortData(event, index.column());
    case Qt::ToolTipRole:
      return index.column() <= DemangledColumn ? QVariant(QString::fromStdString(trace_->longName(event))) : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() <= DemangledColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (int metric = metricOf(index.column());
          metric >= 0 && meansOf(rows_->at(static_cast<size_t>(index.row())))[static_cast<size_t>(metric)] < 0)
        return QColor(Qt::gray);
      return {};
    default:
      return {};
  }
}

QVariant KernelTableModel::displayData(EventRef event, int column) const {
  if (int metric = metricOf(column); metric >= 0) {
    std::optional<uint32_t> number = index_->find(event);
    if (!number) return {};
    float mean = meansOf(*number)[static_cast<size_t>(metric)];
    if (mean == kTooShort) return tr("too short");
    if (mean == kNoMetric) return QStringLiteral("\u2014");
    return QString::number(mean, 'f', 1);
  }
  const Track& track = trace_->track(event.track);
  switch (column) {
    case NameColumn:
      return QString::fromStdString(trace_->name(event));
    case DemangledColumn:
      return QString::fromStdString(trace_->longName(event));
    case StartColumn:
      return durationText(trace_->start(event) - origin_);
    case DurationColumn:
      return durationText(trace_->end(event) - trace_->start(event));
    case DeviceColumn:
      return track.deviceId;
    case ContextColumn:
      return track.contextId;
    case StreamColumn:
      return track.streamId;
    case CorrelationColumn:
      return trace_->lane(event).correlation[event.index];
    case RankColumn:
      if (trackRanks_ && (*trackRanks_)[event.track] >= 0) return qlonglong((*trackRanks_)[event.track]);
      return {};
    default:
      return {};
  }
}

QVariant KernelTableModel::sortData(EventRef event, int column) const {
  switch (column) {
    case StartColumn:
      return qlonglong(trace_->start(event));
    case DurationColumn:
      return qlonglong(trace_->end(event) - trace_->start(event));
    default:
      return displayData(event, column);
  }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (int metric = metricOf(section); metric >= 0) {
    std::string_view label = gpu_metric::labelOf(gpu_metric::kPerKernel[metric]);
    QString name = QString::fromUtf8(label.data(), static_cast<int>(label.size()));
    if (role == Qt::DisplayRole) return name + QStringLiteral(" %");
    if (role == Qt::ToolTipRole)
      return tr("%1: the GPU's sampled counter averaged over the kernel's duration (GPU metrics sampled at %2 Hz). "
                "A GPU-wide mean of whatever ran meanwhile, not a per-launch measurement as ncu's. \"too short\" where "
                "fewer than %3 samples fall inside the kernel.")
          .arg(name)
          .arg(metricsHz_, 0, 'f', 0)
          .arg(kLeastSamplesForMeans);
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Kernel");
    case DemangledColumn:
      return tr("Demangled name");
    case StartColumn:
      return tr("Start");
    case DurationColumn:
      return tr("Duration");
    case DeviceColumn:
      return tr("Device");
    case ContextColumn:
      return tr("Context");
    case StreamColumn:
      return tr("Stream");
    case CorrelationColumn:
      return tr("Correlation ID");
    case RankColumn:
      return tr("Rank");
    default:
      return {};
  }
}

std::optional<int> KernelTableModel::rowOf(EventRef event) const {
  if (!trace_ || !index_ || !rows_) return std::nullopt;
  std::optional<uint32_t> kernel = index_->find(event);
  if (!kernel) return std::nullopt;
  auto it = std::find(rows_->begin(), rows_->end(), *kernel);
  if (it == rows_->end()) return std::nullopt;
  return static_cast<int>(it - rows_->begin());
}

}  // namespace gpuscope::ui
