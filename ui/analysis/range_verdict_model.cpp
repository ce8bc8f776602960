#include "ui/analysis/range_verdict_model.h"

#include <optional>

#include "ui/analysis/verdict_cells.h"

namespace gpuscope::ui {

RangeVerdictModel::RangeVerdictModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeVerdictModel::setReport(std::shared_ptr<const AnalysisReport> report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

int RangeVerdictModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !report_ ? 0 : static_cast<int>(report_->nvtx.size());
}

int RangeVerdictModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {

// The shared verdict cell in COLUMN, or none for the range's own columns.
std::optional<VerdictCell> cellOf(int column) {
  switch (column) {
    case RangeVerdictModel::Class:
      return VerdictCell::Class;
    case RangeVerdictModel::Wall:
      return VerdictCell::Wall;
    case RangeVerdictModel::GpuBusy:
      return VerdictCell::GpuBusy;
    case RangeVerdictModel::CudaApi:
      return VerdictCell::CudaApi;
    case RangeVerdictModel::Sync:
      return VerdictCell::Sync;
    case RangeVerdictModel::CpuWhileIdle:
      return VerdictCell::CpuWhileIdle;
    default:
      return std::nullopt;
  }
}

}  // namespace

QVariant RangeVerdictModel::data(const QModelIndex& index, int role) const {
  if (!report_ || index.row() < 0 || index.row() >= rowCount() || index.column() < 0 || index.column() >= ColumnCount)
    return {};
  const RangeVerdict& range = report_->nvtx[static_cast<size_t>(index.row())];
  if (auto cell = cellOf(index.column())) return verdictCellData(range.verdict, *cell, role, SortRole);
  if (role == Qt::ToolTipRole) return QString::fromStdString(verdictSentence(range.verdict));
  if (role == Qt::TextAlignmentRole && index.column() == Instances)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != SortRole) return {};
  if (index.column() == Range) return QString::fromStdString(range.name);
  return static_cast<qulonglong>(range.instances);
}

QVariant RangeVerdictModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (auto cell = cellOf(section)) return verdictCellTitle(*cell);
  if (section == Range) return tr("NVTX Range");
  if (section == Instances) return tr("Instances");
  return {};
}

}  // namespace gpuscope::ui
