#include "ui/analysis/rank_verdict_model.h"

#include "core/analysis/verdict/percent_text.h"
#include "ui/text.h"

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

QVariant RankVerdictModel::data(const QModelIndex& index, int role) const {
  const RankVerdict* row = rank(index.row());
  if (!row || index.column() < 0 || index.column() >= ColumnCount) return {};
  const VerdictEvidence& e = row->verdict.evidence;
  auto share = [&](TimeNs part) -> QVariant {
    if (role == SortRole) return e.share(part);
    return QString::fromStdString(percentText(e.share(part)));
  };
  if (role == Qt::ToolTipRole) return QString::fromStdString(verdictSentence(row->verdict));
  bool text = index.column() == Rank || index.column() == Host || index.column() == Class;
  if (role == Qt::TextAlignmentRole && !text) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != SortRole) return {};
  switch (index.column()) {
    case Rank:
      if (role == SortRole && row->rank) return static_cast<qlonglong>(*row->rank);
      return row->rank ? QString::number(*row->rank) : QString::fromStdString(row->label);
    case Host:
      return QString::fromStdString(row->hostName);
    case Class:
      return QString::fromUtf8(bottleneckClassName(row->verdict.kind).data());
    case Wall:
      if (role == SortRole) return static_cast<qlonglong>(e.wallNs);
      return durationText(e.wallNs);
    case GpuBusy:
      return share(e.gpuBusyNs);
    case CollectivesAlone:
      return share(e.collectiveOnlyNs);
    case CudaApi:
      return share(e.idleApiNs);
    case Sync:
      return share(e.idleSyncNs);
    case CpuWhileIdle:
      return share(e.idleCpuNs);
    default:
      return {};
  }
}

QVariant RankVerdictModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank:
      return tr("Rank");
    case Host:
      return tr("Host");
    case Class:
      return tr("Verdict");
    case Wall:
      return tr("Judged Window");
    case GpuBusy:
      return tr("GPU Busy");
    case CollectivesAlone:
      return tr("Collectives Alone");
    case CudaApi:
      return tr("Idle: CUDA API");
    case Sync:
      return tr("Idle: Sync");
    case CpuWhileIdle:
      return tr("Idle: CPU");
    default:
      return {};
  }
}

}  // namespace gpuscope::ui
