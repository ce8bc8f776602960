#pragma once
// ReportTableModel: a core ReportTable (an nsys stats report) as a table, cells as the CSV prints them, except
// that the moments of a trace report (its Start and End columns) count in the viewer's time base.
#include <QAbstractTableModel>

#include "core/model/trace_types.h"
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
  // The report as core made it: moments in nsys's session time, as `gpuscope stats` and the CSV export print them.
  const ReportTable& report() const { return report_; }
  // Moments show as session time minus ORIGIN (TraceSession::timeOrigin), their headers naming BASE.
  void setTimeBase(TimeNs origin, TimeBase base);
  // Whether COLUMN holds moments (a start or an end), which follow the time base; durations do not.
  bool isMomentColumn(int column) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  // Display: the cell's CSV text (a moment in the time base); SortRole: the raw number (or text; nothing for an
  // empty cell).
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  ReportTable report_;
  TimeNs origin_ = 0;
  TimeBase base_ = TimeBase::Session;
};

}  // namespace gpuscope::ui
