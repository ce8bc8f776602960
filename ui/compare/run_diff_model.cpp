#include "ui/compare/run_diff_model.h"

#include <QBrush>
#include <QColor>
#include <cmath>

#include "core/model/trace_summary.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

// Slower (more time in B) in red, faster in green, unchanged in the default colour.
QVariant deltaColour(double delta) {
  if (delta > 0) return QBrush(QColor(0xC6, 0x28, 0x28));
  if (delta < 0) return QBrush(QColor(0x2E, 0x7D, 0x32));
  return {};
}

}  // namespace

QString signedDuration(double ns) {
  TimeNs rounded = static_cast<TimeNs>(std::llround(ns));
  return (rounded > 0 ? QStringLiteral("+") : QString()) + durationText(rounded);
}

RunDiffModel::RunDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunDiffModel::setRows(std::vector<DiffRow> rows, DiffBy by) {
  beginResetModel();
  rows_ = std::move(rows);
  by_ = by;
  endResetModel();
}

int RunDiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunDiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunDiffModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const DiffRow& row = rows_[static_cast<size_t>(index.row())];
  int column = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return displayData(row, column);
    case SortRole:
      return sortData(row, column);
    case PresenceRole:
      return static_cast<int>(row.presence);
    case TimelineNameRole:
      return QString::fromStdString(row.timelineName);
    case Qt::ToolTipRole:
      return column == NameColumn ? QVariant(QString::fromStdString(row.name)) : QVariant();
    case Qt::TextAlignmentRole:
      return column == NameColumn || column == StatusColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (column == DeltaTotalColumn || column == DeltaPercentColumn) return deltaColour(row.deltaTotal());
      if (column == DeltaAverageColumn && row.presence == DiffPresence::Both) return deltaColour(row.deltaAverage());
      if (column == StatusColumn && row.presence != DiffPresence::Both)
        return deltaColour(row.presence == DiffPresence::OnlyB ? 1 : -1);
      return {};
    default:
      return {};
  }
}

QVariant RunDiffModel::displayData(const DiffRow& row, int column) const {
  bool inA = row.presence != DiffPresence::OnlyB;
  bool inB = row.presence != DiffPresence::OnlyA;
  switch (column) {
    case NameColumn:
      return QString::fromStdString(row.name);
    case StatusColumn:
      return row.presence == DiffPresence::Both ? QString() : QString::fromLatin1(presenceLabel(row.presence));
    case CountAColumn:
      return qlonglong(row.a.count);
    case CountBColumn:
      return qlonglong(row.b.count);
    case TotalAColumn:
      return inA ? roundedDurationText(static_cast<double>(row.a.total)) : QString();
    case TotalBColumn:
      return inB ? roundedDurationText(static_cast<double>(row.b.total)) : QString();
    case DeltaTotalColumn:
      return signedDuration(static_cast<double>(row.deltaTotal()));
    case DeltaPercentColumn: {
      auto percent = row.deltaTotalPercent();
      if (!percent) return row.presence == DiffPresence::OnlyB ? QStringLiteral("new") : QString();
      return (*percent > 0 ? QStringLiteral("+") : QString()) + QString::number(*percent, 'f', 1) +
             QStringLiteral(" %");
    }
    case AverageAColumn:
      return inA ? roundedDurationText(row.a.average()) : QString();
    case AverageBColumn:
      return inB ? roundedDurationText(row.b.average()) : QString();
    case DeltaAverageColumn:
      return inA && inB ? signedDuration(row.deltaAverage()) : QString();
    default:
      return {};
  }
}

QVariant RunDiffModel::sortData(const DiffRow& row, int column) const {
  switch (column) {
    case NameColumn:
      return QString::fromStdString(row.name);
    case StatusColumn:
      return static_cast<int>(row.presence);
    case CountAColumn:
      return qlonglong(row.a.count);
    case CountBColumn:
      return qlonglong(row.b.count);
    case TotalAColumn:
      return qlonglong(row.a.total);
    case TotalBColumn:
      return qlonglong(row.b.total);
    case DeltaTotalColumn:
      return qlonglong(row.deltaTotal());
    case DeltaPercentColumn: {
      // Rows new in B sort above every finite change.
      auto percent = row.deltaTotalPercent();
      return percent ? *percent : (row.presence == DiffPresence::OnlyB ? 1e300 : 0.0);
    }
    case AverageAColumn:
      return row.a.average();
    case AverageBColumn:
      return row.b.average();
    case DeltaAverageColumn:
      return row.deltaAverage();
    default:
      return {};
  }
}

QVariant RunDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return by_ == DiffBy::Nvtx ? tr("NVTX range") : by_ == DiffBy::Kernel ? tr("Kernel") : tr("Kernel (demangled)");
    case StatusColumn:
      return tr("Status");
    case CountAColumn:
      return tr("Count A");
    case CountBColumn:
      return tr("Count B");
    case TotalAColumn:
      return tr("Total A");
    case TotalBColumn:
      return tr("Total B");
    case DeltaTotalColumn:
      return tr("Δ Total");
    case DeltaPercentColumn:
      return tr("Δ %");
    case AverageAColumn:
      return tr("Avg A");
    case AverageBColumn:
      return tr("Avg B");
    case DeltaAverageColumn:
      return tr("Δ Avg");
    default:
      return {};
  }
}

}  // namespace gpuscope::ui
