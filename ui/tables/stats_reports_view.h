#pragma once
// StatsReportsView: the nsys stats reports of the trace, one at a time from a chooser, each exportable to CSV.
#include <QWidget>
#include <optional>

#include "core/model/trace_types.h"

class QComboBox;

namespace gpuscope::ui {

class RangeBar;

class ReportPane;
class TraceSession;

class StatsReportsView : public QWidget {
  Q_OBJECT
 public:
  StatsReportsView(TraceSession* session, QWidget* parent = nullptr);

  // Shows the report named NAME (one of statsReportNames()); false for an unknown name.
  bool showReport(const QString& name);
  ReportPane* pane() const { return pane_; }
  RangeBar* rangeBar() const { return rangeBar_; }
  QComboBox* chooser() const { return chooser_; }
  // The event the report's (source) row ROW stands for: a trace report's row is one event, a summary's row
  // its group's earliest instance (see eventOfReportRow).
  std::optional<EventRef> eventOfRow(int row) const;

 private:
  void reload();
  void focusRow(int row);
  // Makes the row of the session's selected event current in a trace report (the kernel picked on the
  // timeline or in the Kernels table), without moving the timeline.
  void markSelection();

  TraceSession* session_;
  QComboBox* chooser_;
  ReportPane* pane_;
  RangeBar* rangeBar_ = nullptr;
  bool markingSelection_ = false;
};

}  // namespace gpuscope::ui
