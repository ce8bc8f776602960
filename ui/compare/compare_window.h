#pragma once
// CompareWindow: the top-level window of a comparison. It loads both runs in the background, each through a
// BackgroundTraceLoader with the progress strip and Cancel button the main window uses, and shows their
// CompareView once both are in; a failure or a cancel of either stops both. It has a menu bar of its own.
#include <QString>
#include <QWidget>
#include <memory>

#include "core/model/trace.h"

class QLabel;
class QMenuBar;
class QVBoxLayout;

namespace gpuscope::ui {

class BackgroundTraceLoader;
class CompareView;
class LoadProgressWidget;

class CompareWindow : public QWidget {
  Q_OBJECT
 public:
  explicit CompareWindow(QWidget* parent = nullptr);
  // Cancels the loads in progress and waits for their workers.
  ~CompareWindow() override;

  // Starts loading PATH_A (the baseline) and PATH_B side by side, superseding any load in progress.
  void load(const QString& pathA, const QString& pathB);
  bool isLoading() const;
  // The comparison, once both runs are loaded; null before.
  CompareView* view() const { return view_; }
  BackgroundTraceLoader* loaderA() const { return loaderA_; }
  BackgroundTraceLoader* loaderB() const { return loaderB_; }
  LoadProgressWidget* progressA() const { return progressA_; }
  LoadProgressWidget* progressB() const { return progressB_; }

 public slots:
  // Stops both loads; emits cancelled() when one was running.
  void cancel();

 signals:
  void loaded();
  // MESSAGE is one sentence: what could not be read, and why.
  void failed(const QString& message);
  void cancelled();

 private:
  void onLoaded(bool isA, std::shared_ptr<const Trace> trace);
  void onFailed(const QString& message);
  void onCancelled();
  // Cancels both loads and drops what either has delivered.
  void stopAll();
  void showComparison();
  // File (Close Window) and Help (Keyboard Shortcuts, F1), as in the main window.
  QMenuBar* buildMenuBar();

  BackgroundTraceLoader* loaderA_;
  BackgroundTraceLoader* loaderB_;
  std::shared_ptr<const Trace> a_;
  std::shared_ptr<const Trace> b_;
  QVBoxLayout* layout_;
  QWidget* loadingPage_;
  QLabel* loadingTitle_;
  LoadProgressWidget* progressA_;
  LoadProgressWidget* progressB_;
  CompareView* view_ = nullptr;
  bool stopping_ = false;  // inside stopAll()
};

// A top-level window comparing the trace files PATH_A and PATH_B, shown at once and loading both in the
// background; it deletes itself when closed, and closes itself when the loads are cancelled.
CompareWindow* openCompare(const QString& pathA, const QString& pathB, QWidget* parent = nullptr);

}  // namespace gpuscope::ui
