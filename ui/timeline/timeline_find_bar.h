#pragma once
// TimelineFindBar: the Ctrl+F bar under the timeline: a name pattern (substring or regex), the
// match count, and next / previous, which select and focus each match in turn.
#include <QWidget>
#include <optional>

#include "core/query/event_find.h"
#include "ui/session/trace_session.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace gpuscope::ui {

class TimelineFindBar : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineFindBar(TraceSession* session, QWidget* parent = nullptr);

  // Shows the bar with the pattern field focused and selected.
  void open();
  void setPattern(const QString& pattern, bool regex);
  // Runs the search now if one is pending (typing waits a moment before searching).
  void searchNow();
  void findNext();
  void findPrevious();

  const FindResult& result() const { return result_; }
  std::optional<size_t> current() const { return current_; }
  QString statusText() const;

 signals:
  // A match was chosen: the view selects and focuses it.
  void matchActivated(gpuscope::EventRef event);
  void closed();

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void scheduleSearch();
  void activate(size_t index);
  void showStatus();

  TraceSession* session_;
  QLineEdit* field_;
  QCheckBox* regex_;
  QCheckBox* caseSensitive_;
  QToolButton* previous_;
  QToolButton* next_;
  QLabel* status_;
  QTimer* debounce_;
  FindResult result_;
  std::optional<size_t> current_;
  QString error_;
  bool pending_ = false;
};

}  // namespace gpuscope::ui
