#include "ui/tables/kernel_summary_model.h"

#include <cmath>

#include "core/model/trace_summary.h"
#include "ui/text.h"

namespace gpuscope::ui {

KernelSummaryModel::KernelSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelSummaryModel::setTrace(std::shared_ptr<const Trace> trace) {
  beginResetModel();
  trace_ = std::move(trace);
  groups_ = trace_ ? summarizeKernels(*trace_, kernelInstances(*trace_), KernelGrouping::DemangledName)
                   : std::vector<KernelGroup>{};
  endResetModel();
}

void KernelSummaryModel::setGroups(std::shared_ptr<const Trace> trace, std::vector<KernelGroup> groups) {
  beginResetModel();
  trace_ = std::move(trace);
  groups_ = trace_ ? std::move(groups) : std::vector<KernelGroup>{};
  endResetModel();
}

int KernelSummaryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(groups_.size());
}

int KernelSummaryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant KernelSummaryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const KernelGroup& group = groups_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return displayData(group, index.column());
    case SortRole:
      return sortData(group, index.column());
    case Qt::ToolTipRole:
      return index.column() <= DemangledColumn ? QVariant(QString::fromStdString(trace_->string(group.longName)))
                                               : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() <= DemangledColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
      return {};
  }
}

QVariant KernelSummaryModel::displayData(const KernelGroup& group, int column) const {
  switch (column) {
    case NameColumn:
      return QString::fromStdString(group.label);
    case DemangledColumn:
      return QString::fromStdString(trace_->string(group.longName));
    case CountColumn:
      return qulonglong(group.count);
    case TotalColumn:
      return durationText(group.total);
    case AverageColumn:
      return durationText(static_cast<TimeNs>(std::llround(group.average())));
    case MinColumn:
      return durationText(group.min);
    case MaxColumn:
      return durationText(group.max);
    case ShareColumn:
      return QString::number(group.share * 100.0, 'f', 1) + QStringLiteral(" %");
    default:
      return {};
  }
}

QVariant KernelSummaryModel::sortData(const KernelGroup& group, int column) const {
  switch (column) {
    case TotalColumn:
      return qlonglong(group.total);
    case AverageColumn:
      return group.average();
    case MinColumn:
      return qlonglong(group.min);
    case MaxColumn:
      return qlonglong(group.max);
    case ShareColumn:
      return group.share;
    default:
      return displayData(group, column);
  }
}

QVariant KernelSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Kernel");
    case DemangledColumn:
      return tr("Demangled name");
    case CountColumn:
      return tr("Count");
    case TotalColumn:
      return tr("Total");
    case AverageColumn:
      return tr("Average");
    case MinColumn:
      return tr("Min");
    case MaxColumn:
      return tr("Max");
    case ShareColumn:
      return tr("GPU time");
    default:
      return {};
  }
}

}  // namespace gpuscope::ui
