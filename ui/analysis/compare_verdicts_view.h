#pragma once
// CompareVerdictsView: the bottleneck verdicts of two runs side by side, for the compare view, each analyzed
// in the background from its file, each judging its own run's steady state (which the view says, since the
// compare tables cover the aligned window instead). A verdict longer than its box scrolls; none is cut.
#include <QWidget>

#include "core/analysis/verdict/analysis_report.h"

class QTextBrowser;

namespace gpuscope::ui {

class BackgroundAnalysis;

class CompareVerdictsView : public QWidget {
  Q_OBJECT
 public:
  // Starts analyzing the files of run A and run B.
  CompareVerdictsView(const QString& pathA, const QString& pathB, QWidget* parent = nullptr);

  QTextBrowser* verdictA() const { return labelA_; }
  QTextBrowser* verdictB() const { return labelB_; }
  // True once both runs have their verdict (or its error) shown.
  bool isComplete() const { return pending_ == 0; }

 signals:
  void completed();

 private:
  QTextBrowser* addRun(const QString& title, const QString& path, int column);

  QTextBrowser* labelA_ = nullptr;
  QTextBrowser* labelB_ = nullptr;
  int pending_ = 2;
};

}  // namespace gpuscope::ui
