#pragma once
// CompareSummary: the frame under the alignment bar that names the stretch of both runs the comparison
// covers ("Aligned window: NVTX 'epoch 1', A 524.043 ms, B 322.162 ms") and lays out the run-level
// metrics of it in two halves side by side, each row "metric | A | B | delta | delta %".
#include <QFrame>
#include <vector>

#include "core/diff/run_diff.h"

class QGridLayout;
class QLabel;

namespace gpuscope::ui {

class CompareSummary : public QFrame {
  Q_OBJECT
 public:
  explicit CompareSummary(QWidget* parent = nullptr);

  // Replaces what the frame shows. The window line is the label "summaryWindow"; metric I's cells are the
  // labels "summary_I_C", C from 0 (name) to 4 (delta %).
  void setContents(const QString& windowText, const std::vector<SummaryMetric>& metrics);

 private:
  QLabel* windowLabel_ = nullptr;
  QGridLayout* grid_ = nullptr;
};

}  // namespace gpuscope::ui
