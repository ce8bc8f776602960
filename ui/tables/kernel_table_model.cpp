#include "ui/tables/kernel_table_model.h"

#include <algorithm>
#include <tuple>

#include "core/details/event_details.h"
#include "core/details/kernel_list.h"
#include "core/model/trace_summary.h"

namespace gpuscope::ui {

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setTrace(std::shared_ptr<const Trace> trace) {
  beginResetModel();
  trace_ = std::move(trace);
  instances_ = trace_ ? kernelInstances(*trace_) : std::vector<EventRef>{};
  endResetModel();
}

void KernelTableModel::setTimeOrigin(TimeNs origin) {
  if (origin == origin_) return;
  origin_ = origin;
  if (!instances_.empty()) emit dataChanged(index(0, StartColumn), index(rowCount() - 1, StartColumn));
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(instances_.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  EventRef event = instances_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return displayData(event, index.column());
    case SortRole:
      return sortData(event, index.column());
    case Qt::ToolTipRole:
      return index.column() <= DemangledColumn ? QVariant(QString::fromStdString(trace_->longName(event))) : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() <= DemangledColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
      return {};
  }
}

QVariant KernelTableModel::displayData(EventRef event, int column) const {
  const Track& track = trace_->track(event.track);
  switch (column) {
    case NameColumn:
      return QString::fromStdString(trace_->name(event));
    case DemangledColumn:
      return QString::fromStdString(trace_->longName(event));
    case StartColumn:
      return QString::fromStdString(formatDuration(trace_->start(event) - origin_));
    case DurationColumn:
      return QString::fromStdString(formatDuration(trace_->end(event) - trace_->start(event)));
    case DeviceColumn:
      return track.deviceId;
    case ContextColumn:
      return track.contextId;
    case StreamColumn:
      return track.streamId;
    case CorrelationColumn:
      return trace_->lane(event).correlation[event.index];
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
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
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
    default:
      return {};
  }
}

std::optional<int> KernelTableModel::rowOf(EventRef event) const {
  if (!trace_ || !isValidEvent(*trace_, event) || trace_->track(event.track).kind != TrackKind::GpuKernels)
    return std::nullopt;
  // Rows are ordered by (start, track, lane, index), as kernelInstances sorts them.
  auto key = [this](const EventRef& r) { return std::make_tuple(trace_->start(r), r.track, r.lane, r.index); };
  auto it = std::lower_bound(instances_.begin(), instances_.end(), event,
                             [&](const EventRef& a, const EventRef& b) { return key(a) < key(b); });
  if (it == instances_.end() || !(*it == event)) return std::nullopt;
  return static_cast<int>(it - instances_.begin());
}

}  // namespace gpuscope::ui
