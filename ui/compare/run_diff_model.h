#pragma once
// RunDiffModel: the rows of a run diff (a name's count, total and average in runs A and B, and the deltas).
#include <QAbstractTableModel>
#include <vector>

#include "core/diff/run_diff.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

class RunDiffModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns {
    NameColumn,
    StatusColumn,
    CountAColumn,
    CountBColumn,
    TotalAColumn,
    TotalBColumn,
    DeltaTotalColumn,
    DeltaPercentColumn,
    AverageAColumn,
    AverageBColumn,
    DeltaAverageColumn,
    ColumnCount
  };
  enum Roles {
    SortRole = kTableSortRole,        // the raw number (ns, count, percent) or the name
    PresenceRole = Qt::UserRole + 2,  // DiffPresence as an int
    TimelineNameRole,                 // the name the timelines use for the row's instances
  };

  explicit RunDiffModel(QObject* parent = nullptr);

  // Replaces every row in one reset.
  void setRows(std::vector<DiffRow> rows, DiffBy by);
  const std::vector<DiffRow>& rows() const { return rows_; }
  const DiffRow& rowAt(int row) const { return rows_.at(static_cast<size_t>(row)); }
  DiffBy by() const { return by_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVariant displayData(const DiffRow& row, int column) const;
  QVariant sortData(const DiffRow& row, int column) const;

  std::vector<DiffRow> rows_;
  DiffBy by_ = DiffBy::Kernel;
};

// "+1.500 ms", "-20 ns", "0 ns": a signed duration.
QString signedDuration(double ns);

}  // namespace gpuscope::ui
