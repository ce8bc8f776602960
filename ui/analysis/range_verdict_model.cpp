#include "ui/analysis/range_verdict_model.h"

#include "core/analysis/verdict/percent_text.h"
#include "ui/text.h"

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

QVariant RangeVerdictModel::data(const QModelIndex& index, int role) const {
  if (!report_ || index.row() < 0 || index.row() >= rowCount() || index.column() < 0 || index.column() >= ColumnCount)
    return {};
  const RangeVerdict& range = report_->nvtx[static_cast<size_t>(index.row())];
  const VerdictEvidence& e = range.verdict.evidence;
  auto share = [&](TimeNs part) -> QVariant {
    if (role == SortRole) return e.share(part);
    return QString::fromStdString(percentText(e.share(part)));
  };
  if (role == Qt::ToolTipRole) return QString::fromStdString(verdictSentence(range.verdict));
  if (role == Qt::TextAlignmentRole && index.column() != Range && index.column() != Class)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != SortRole) return {};
  switch (index.column()) {
    case Range:
      return QString::fromStdString(range.name);
    case Instances:
      return static_cast<qulonglong>(range.instances);
    case Class:
      return QString::fromUtf8(bottleneckClassName(range.verdict.kind).data());
    case Wall:
      if (role == SortRole) return static_cast<qlonglong>(e.wallNs);
      return durationText(e.wallNs);
    case GpuBusy:
      return share(e.gpuBusyNs);
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

QVariant RangeVerdictModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Range:
      return tr("NVTX Range");
    case Instances:
      return tr("Instances");
    case Class:
      return tr("Verdict");
    case Wall:
      return tr("Wall Time");
    case GpuBusy:
      return tr("GPU Busy");
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
