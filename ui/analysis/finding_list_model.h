#pragma once
// FindingListModel: the findings of an analysis as a table, the most time at stake first: severity, the
// time at stake in the judged window, title, the first sentence of what was found (with its numbers) and
// how many places it points at.
#include <QAbstractTableModel>
#include <memory>

#include "core/analysis/verdict/analysis_report.h"

namespace gpuscope::ui {

class FindingListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Severity, AtStake, Title, Summary, Places, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1 };

  explicit FindingListModel(QObject* parent = nullptr);

  // Resets the model once with REPORT's findings (null: none).
  void setReport(std::shared_ptr<const AnalysisReport> report);
  const Finding* finding(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // The explanation's first sentence: "4 FP32 GEMM kernels took 1.2 s, 43.1% of the kernel time, ...".
  static QString summaryOf(const Finding& finding);

 private:
  std::shared_ptr<const AnalysisReport> report_;
};

}  // namespace gpuscope::ui
