#include "ui/analysis/finding_list_model.h"

#include <QBrush>
#include <QColor>

#include "ui/text.h"

namespace gpuscope::ui {
namespace {

QColor severityColor(gpuscope::Severity severity) {
  switch (severity) {
    case gpuscope::Severity::Critical:
      return QColor(0xc6, 0x28, 0x28);
    case gpuscope::Severity::Warning:
      return QColor(0xb2, 0x6a, 0x00);
    case gpuscope::Severity::Info:
      break;
  }
  return QColor(0x45, 0x5a, 0x64);
}

}  // namespace

FindingListModel::FindingListModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindingListModel::setReport(std::shared_ptr<const AnalysisReport> report) {
  beginResetModel();
  report_ = std::move(report);
  rows_.clear();
  if (report_) {
    for (const Finding& finding : report_->findings) rows_.push_back({&finding, -1});
    for (size_t r = 0; r < report_->ranks.size(); ++r) {
      for (const Finding& finding : report_->ranks[r].findings) rows_.push_back({&finding, static_cast<int>(r)});
    }
  }
  endResetModel();
}

const Finding* FindingListModel::finding(int row) const {
  if (row < 0 || row >= static_cast<int>(rows_.size())) return nullptr;
  return rows_[static_cast<size_t>(row)].finding;
}

const RankVerdict* FindingListModel::rankOf(int row) const {
  if (row < 0 || row >= static_cast<int>(rows_.size()) || rows_[static_cast<size_t>(row)].rankIndex < 0) return nullptr;
  return &report_->ranks[static_cast<size_t>(rows_[static_cast<size_t>(row)].rankIndex)];
}

int FindingListModel::firstRowOfRank(int rankIndex) const {
  for (size_t row = 0; row < rows_.size(); ++row)
    if (rows_[row].rankIndex == rankIndex) return static_cast<int>(row);
  return -1;
}

int FindingListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FindingListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString FindingListModel::summaryOf(const Finding& finding) {
  QString text = QString::fromStdString(finding.explanation);
  // The first sentence ends at ". " followed by a capital; numbers such as "1.2 s" do not end it.
  for (qsizetype i = 0; i + 2 < text.size(); ++i) {
    if (text[i] == '.' && text[i + 1] == ' ' && text[i + 2].isUpper()) return text.left(i + 1);
  }
  return text;
}

QVariant FindingListModel::data(const QModelIndex& index, int role) const {
  const Finding* item = finding(index.row());
  if (!item || index.column() < 0 || index.column() >= ColumnCount) return {};
  const RankVerdict* rank = rankOf(index.row());
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
      case Rank:
        return rank ? QString::fromStdString(rank->label) : QString();
      case Severity:
        return QString::fromUtf8(severityName(item->severity));
      case AtStake:
        return item->atStakeNs > 0 ? durationText(item->atStakeNs) : QStringLiteral("-");
      case Title:
        return QString::fromStdString(item->title);
      case Summary:
        return role == Qt::ToolTipRole ? QString::fromStdString(item->explanation) : summaryOf(*item);
      case Places:
        return static_cast<qlonglong>(item->ranges.size());
      default:
        return {};
    }
  }
  if (role == SortRole) {
    if (index.column() == Rank) return rows_[static_cast<size_t>(index.row())].rankIndex;
    if (index.column() == Severity) return static_cast<int>(item->severity);
    if (index.column() == Places) return static_cast<qlonglong>(item->ranges.size());
    if (index.column() == AtStake) return static_cast<qlonglong>(item->atStakeNs);
    return data(index, Qt::DisplayRole);
  }
  if (role == Qt::ForegroundRole && index.column() == Severity) return QBrush(severityColor(item->severity));
  if (role == Qt::TextAlignmentRole && (index.column() == Places || index.column() == AtStake))
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant FindingListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank:
      return tr("Rank");
    case Severity:
      return tr("Severity");
    case AtStake:
      return tr("At stake");
    case Title:
      return tr("Finding");
    case Summary:
      return tr("What was found");
    case Places:
      return tr("Places");
    default:
      return {};
  }
}

}  // namespace gpuscope::ui
