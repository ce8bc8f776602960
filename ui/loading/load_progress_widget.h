#pragma once
// LoadProgressWidget: the status-bar strip that shows which file is loading, how far along, and Cancel.
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace gpuscope::ui {

class BackgroundTraceLoader;

// Follows a BackgroundTraceLoader: visible only while a load is running; Cancel calls its cancel().
class LoadProgressWidget : public QWidget {
  Q_OBJECT
 public:
  explicit LoadProgressWidget(BackgroundTraceLoader* loader, QWidget* parent = nullptr);

  QProgressBar* progressBar() const { return bar_; }
  QToolButton* cancelButton() const { return cancel_; }

 private:
  void onStarted(const QString& path);
  void onProgress(double fraction);
  void onStopped();

  QLabel* label_;
  QProgressBar* bar_;
  QToolButton* cancel_;
};

}  // namespace gpuscope::ui
