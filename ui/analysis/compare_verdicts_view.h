#pragma once
// CompareVerdictsView: the bottleneck verdicts of two runs side by side, for the compare view, each analyzed
// in the background from its file.
#include <QWidget>

#include "core/analysis/verdict/analysis_report.h"

class QLabel;

namespace gpuscope::ui {

class BackgroundAnalysis;

class CompareVerdictsView : public QWidget {
  Q_OBJECT
 public:
  // Starts analyzing the files of run A and run B.
  CompareVerdictsView(const QString& pathA, const QString& pathB, QWidget* parent = nullptr);

  QLabel* verdictA() const { return labelA_; }
  QLabel* verdictB() const { return labelB_; }
  // True once both runs have their verdict (or its error) shown.
  bool isComplete() const { return pending_ == 0; }

 signals:
  void completed();

 private:
  QLabel* addRun(const QString& title, const QString& path, int column);

  QLabel* labelA_ = nullptr;
  QLabel* labelB_ = nullptr;
  int pending_ = 2;
};

}  // namespace gpuscope::ui
