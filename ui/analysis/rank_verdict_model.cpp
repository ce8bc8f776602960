#include "ui/analysis/rank_verdict_model.h"

#include <optional>

#include "ui/analysis/verdict_cells.h"

namespace gpuscope::ui {

RankVerdictModel::RankVerdictModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankVerdictModel::setReport(std::shared_ptr<const AnalysisReport> report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

const RankVerdict* RankVerdictModel::rank(int row) const {
  if (!report_ || row < 0 || row >= static_cast<int>(report_->ranks.size())) return nullptr;
  return &report_->ranks[static_cast<size_t>(row)];
}

int RankVerdictModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !report_ ? 0 : static_cast<int>(report_->ranks.size());
}

int RankVerdictModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {

// The shared verdict cell in COLUMN, or none for the rank's own columns.
std::optional<VerdictCell> rankCellOf(int column) {
  switch (column) {
    case RankVerdictModel::Class:
      return VerdictCell::Class;
    case RankVerdictModel::Wall:
      return VerdictCell::Wall;
    case RankVerdictModel::GpuBusy:
      return VerdictCell::GpuBusy;
    case RankVerdictModel::CollectivesAlone:
      return VerdictCell::CollectivesAlone;
    case RankVerdictModel::CudaApi:
      return VerdictCell::CudaApi;
    case RankVerdictModel::Sync:
      return VerdictCell::Sync;
    case RankVerdictModel::CpuWhileIdle:
      return VerdictCell::CpuWhileIdle;
    default:
      return std::nullopt;
  }
}

}  // namespace

QVariant RankVerdictModel::data(const QModelIndex& index, int role) const {
  const RankVerdict* row = rank(index.row());
  if (!row || index.column() < 0 || index.column() >= ColumnCount) return {};
  if (auto cell = rankCellOf(index.column())) return verdictCellData(row->verdict, *cell, role, SortRole);
  if (role == Qt::ToolTipRole) return QString::fromStdString(verdictSentence(row->verdict));
  if (role != Qt::DisplayRole && role != SortRole) return {};
  if (index.column() == Host) return QString::fromStdString(row->hostName);
  if (role == SortRole && row->rank) return static_cast<qlonglong>(*row->rank);
  return row->rank ? QString::number(*row->rank) : QString::fromStdString(row->label);
}

QVariant RankVerdictModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  // A rank's window is the steady state judged, not the whole run's wall time.
  if (section == Wall) return tr("Judged Window");
  if (auto cell = rankCellOf(section)) return verdictCellTitle(*cell);
  if (section == Rank) return tr("Rank");
  if (section == Host) return tr("Host");
  return {};
}

}  // namespace gpuscope::ui
