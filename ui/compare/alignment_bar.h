#pragma once
// AlignmentBar: the compare view's controls that line run B up on run A: the anchor (both runs' starts,
// an NVTX range or a kernel, named from either run), which instance of it in each run, and a manual shift
// of B; beside them, a line that says the alignment in force, or why the one asked for was refused.
// The bar holds no alignment itself: CompareView applies what it shows.
#include <QFrame>
#include <memory>

#include "core/diff/run_alignment.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace gpuscope::ui {

// "start", or "kernel \"gemm\" #1" / "range \"step\" #5": instances count from 1, as people count.
QString anchorText(const AlignmentAnchor& anchor);

class AlignmentBar : public QFrame {
  Q_OBJECT
 public:
  // The names offered are those of A and B together.
  AlignmentBar(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QWidget* parent = nullptr);

  // Puts ANCHOR_A's kind and name, ANCHOR_A's and ANCHOR_B's indexes and SHIFT into the controls, without
  // emitting edited(). The shift is held in whole nanoseconds, so that anchorA(), anchorB() and shift()
  // give back exactly what was put.
  void setControls(const AlignmentAnchor& anchorA, const AlignmentAnchor& anchorB, TimeNs shift);
  // What the controls ask for: the anchor in A, the anchor in B (same kind and name) and B's shift.
  AlignmentAnchor anchorA() const;
  AlignmentAnchor anchorB() const;
  TimeNs shift() const;

  // The line beside the controls: the alignment in force, or (in red) that MISSING is not in A (when
  // MISSING_FROM_A) or not in B, and that the previous alignment stays.
  void showApplied(const QString& text);
  void showRefused(const AlignmentAnchor& missing, bool missingFromA);

 signals:
  // The user changed a control.
  void edited();

 private:
  void fillAnchorNames();

  std::shared_ptr<const Trace> a_;
  std::shared_ptr<const Trace> b_;
  bool updatingControls_ = false;
  QComboBox* anchorKind_ = nullptr;
  QComboBox* anchorName_ = nullptr;
  QSpinBox* indexA_ = nullptr;
  QSpinBox* indexB_ = nullptr;
  QDoubleSpinBox* shiftUs_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace gpuscope::ui
