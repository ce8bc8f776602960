#pragma once
// RangeVerdictModel: the verdict of each NVTX range name (a training step, a layer) as a table row: the
// class and the shares that decided it.
#include <QAbstractTableModel>
#include <memory>

#include "core/analysis/verdict/analysis_report.h"

namespace gpuscope::ui {

class RangeVerdictModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Range, Instances, Class, Wall, GpuBusy, CudaApi, Sync, CpuWhileIdle, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1 };

  explicit RangeVerdictModel(QObject* parent = nullptr);
  void setReport(std::shared_ptr<const AnalysisReport> report);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const AnalysisReport> report_;
};

}  // namespace gpuscope::ui
