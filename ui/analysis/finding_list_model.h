#pragma once
// FindingListModel: the findings of an analysis as a table, the most time at stake first: severity, the
// time at stake in the judged window, title, the first sentence of what was found (with its numbers) and
// how many places it points at. In a trace of several ranks, each rank's findings (found in the window its
// verdict judged, on its processes), rank by rank, with the rank in the first column.
#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "core/analysis/verdict/analysis_report.h"

namespace gpuscope::ui {

class FindingListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Rank, Severity, AtStake, Title, Summary, Places, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1 };

  explicit FindingListModel(QObject* parent = nullptr);

  // Resets the model once with REPORT's findings (null: none).
  void setReport(std::shared_ptr<const AnalysisReport> report);
  const Finding* finding(int row) const;
  // The rank whose finding ROW is, or nullptr (a trace of one rank: the whole file's findings).
  const RankVerdict* rankOf(int row) const;
  // The first row of the rank at RANK_INDEX of the report's ranks, or -1 when it found nothing.
  int firstRowOfRank(int rankIndex) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // The explanation's first sentence: "4 FP32 GEMM kernels took 1.2 s, 43.1% of the kernel time, ...".
  static QString summaryOf(const Finding& finding);

 private:
  struct Row {
    const Finding* finding;
    int rankIndex;  // into report_->ranks, or -1
  };
  std::shared_ptr<const AnalysisReport> report_;
  std::vector<Row> rows_;
};

}  // namespace gpuscope::ui
