#pragma once
// KernelTableModel: one row per kernel instance of a trace, in time order.
#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

#include "core/model/trace.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

class KernelTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns {
    NameColumn,
    DemangledColumn,
    StartColumn,
    DurationColumn,
    DeviceColumn,
    ContextColumn,
    StreamColumn,
    CorrelationColumn,
    ColumnCount
  };
  enum Roles { SortRole = kTableSortRole };

  explicit KernelTableModel(QObject* parent = nullptr);

  // Replaces every row in one reset; a null trace empties the table.
  void setTrace(std::shared_ptr<const Trace> trace);
  // The file time the Start column shows as zero (TraceSession::timeOrigin).
  void setTimeOrigin(TimeNs origin);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  EventRef eventAt(int row) const { return instances_.at(static_cast<size_t>(row)); }
  // The row of a kernel instance, if EVENT is one.
  std::optional<int> rowOf(EventRef event) const;

 private:
  QVariant displayData(EventRef event, int column) const;
  QVariant sortData(EventRef event, int column) const;

  std::shared_ptr<const Trace> trace_;
  std::vector<EventRef> instances_;
  TimeNs origin_ = 0;
};

}  // namespace gpuscope::ui
