#include "ui/analysis/verdict_cells.h"

#include <QCoreApplication>

#include "core/text/percent_text.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

// The part of the judged window a share cell shows.
TimeNs partOf(const VerdictEvidence& e, VerdictCell cell) {
  switch (cell) {
    case VerdictCell::GpuBusy:
      return e.gpuBusyNs;
    case VerdictCell::CollectivesAlone:
      return e.collectiveOnlyNs;
    case VerdictCell::CudaApi:
      return e.idleApiNs;
    case VerdictCell::Sync:
      return e.idleSyncNs;
    case VerdictCell::CpuWhileIdle:
      return e.idleCpuNs;
    default:
      return 0;
  }
}

}  // namespace

QVariant verdictCellData(const Verdict& verdict, VerdictCell cell, int role, int sortRole) {
  if (role == Qt::ToolTipRole) return QString::fromStdString(verdictSentence(verdict));
  if (role == Qt::TextAlignmentRole)
    return cell == VerdictCell::Class ? QVariant() : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != sortRole) return {};
  const VerdictEvidence& e = verdict.evidence;
  switch (cell) {
    case VerdictCell::Class:
      return QString::fromUtf8(bottleneckClassName(verdict.kind).data());
    case VerdictCell::Wall:
      if (role == sortRole) return static_cast<qlonglong>(e.wallNs);
      return durationText(e.wallNs);
    default:
      if (role == sortRole) return e.share(partOf(e, cell));
      return QString::fromStdString(percentText(e.share(partOf(e, cell))));
  }
}

QString verdictCellTitle(VerdictCell cell) {
  auto tr = [](const char* text) { return QCoreApplication::translate("VerdictCells", text); };
  switch (cell) {
    case VerdictCell::Class:
      return tr("Verdict");
    case VerdictCell::Wall:
      return tr("Wall Time");
    case VerdictCell::GpuBusy:
      return tr("GPU Busy");
    case VerdictCell::CollectivesAlone:
      return tr("Collectives Alone");
    case VerdictCell::CudaApi:
      return tr("Idle: CUDA API");
    case VerdictCell::Sync:
      return tr("Idle: Sync");
    case VerdictCell::CpuWhileIdle:
      return tr("Idle: CPU");
  }
  return {};
}

}  // namespace gpuscope::ui
