#pragma once
// RangeBar: the strip above a table while the ruler's range restricts its rows ("Only kernels in 1.2 s –
// 1.4 s (200 ms), the range picked on the ruler"), with the button that clears the range. Hidden without one.
#include <QWidget>

#include "core/query/kernel_rows.h"

class QLabel;

namespace gpuscope::ui {

class TraceSession;

class RangeBar : public QWidget {
  Q_OBJECT
 public:
  // WHAT names the rows in the sentence ("kernels", "events"); Clear range clears SESSION's range.
  RangeBar(TraceSession* session, QString what, QWidget* parent = nullptr);

  // The session's range, ordered (from <= to); empty when there is none or no trace.
  TimeInterval sessionRange() const;
  // Shows the bar for the session's range, or hides it.
  void update();
  QString text() const;

 private:
  TraceSession* session_;
  QString what_;
  QLabel* text_;
};

}  // namespace gpuscope::ui
