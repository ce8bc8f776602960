#pragma once
// The GPUs two compared runs ran on, as each trace's device info names them, and the line that warns when
// they differ: the times and roofs of two different GPUs do not compare like for like.
#include <QString>

#include "core/model/trace.h"

class QLabel;
class QWidget;

namespace gpuscope::ui {

// "NVIDIA H100 80GB HBM3", "2 × NVIDIA A100-SXM4-40GB", "NVIDIA A100, NVIDIA T4", or "unknown GPU".
QString runGpus(const Trace& trace);

// "A ran on NVIDIA H100 80GB HBM3 and B on NVIDIA H200: ..." when the runs' GPUs differ; empty when they are
// the same or either run names none.
QString differentGpusWarning(const Trace& a, const Trace& b);

// A label showing differentGpusWarning in a warning colour, hidden when there is nothing to warn of.
QLabel* differentGpusLabel(const Trace& a, const Trace& b, QWidget* parent);

}  // namespace gpuscope::ui
