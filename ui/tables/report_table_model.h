#pragma once
// ReportTableModel: a core ReportTable (an nsys stats report) as a table, cells as the CSV prints them.
#include <QAbstractTableModel>

#include "core/report/report_table.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

class ReportTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Roles { SortRole = kTableSortRole };

  explicit ReportTableModel(QObject* parent = nullptr);

  // Replaces the report in one reset.
  void setReport(ReportTable report);
  const ReportTable& report() const { return report_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  // Display: the cell's CSV text; SortRole: the raw number (or text; nothing for an empty cell).
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  ReportTable report_;
};

}  // namespace gpuscope::ui
