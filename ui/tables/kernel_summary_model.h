#pragma once
// KernelSummaryModel: kernels grouped by real kernel (demangled name) with count, total, average, min, max and share of
// GPU time.
#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "core/details/kernel_list.h"
#include "core/model/trace.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

class KernelSummaryModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns {
    NameColumn,
    DemangledColumn,
    CountColumn,
    TotalColumn,
    AverageColumn,
    MinColumn,
    MaxColumn,
    ShareColumn,
    ColumnCount
  };
  enum Roles { SortRole = kTableSortRole };

  explicit KernelSummaryModel(QObject* parent = nullptr);

  // Replaces every row in one reset, grouping TRACE's kernels here; a null trace empties the table.
  void setTrace(std::shared_ptr<const Trace> trace);
  // Replaces every row in one reset with GROUPS of TRACE, grouped elsewhere (KernelTableModel::groupsReady).
  void setGroups(std::shared_ptr<const Trace> trace, std::vector<KernelGroup> groups);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  const KernelGroup& groupAt(int row) const { return groups_.at(static_cast<size_t>(row)); }
  // The earliest instance of the row's kernel.
  EventRef firstInstance(int row) const { return groupAt(row).first; }

 private:
  QVariant displayData(const KernelGroup& group, int column) const;
  QVariant sortData(const KernelGroup& group, int column) const;

  std::shared_ptr<const Trace> trace_;
  std::vector<KernelGroup> groups_;
};

}  // namespace gpuscope::ui
