#pragma once
// RankVerdictModel: in a trace of several ranks, each rank's verdict as a table row (rank, host, class and the
// shares that decided it), so that the rank waiting in its collectives reads beside the one that keeps it
// waiting.
#include <QAbstractTableModel>
#include <memory>

#include "core/analysis/verdict/analysis_report.h"

namespace gpuscope::ui {

class RankVerdictModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Rank, Host, Class, Wall, GpuBusy, CollectivesAlone, CudaApi, Sync, CpuWhileIdle, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1 };

  explicit RankVerdictModel(QObject* parent = nullptr);
  void setReport(std::shared_ptr<const AnalysisReport> report);
  // The rank of ROW, or nullptr.
  const RankVerdict* rank(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const AnalysisReport> report_;
};

}  // namespace gpuscope::ui
