#pragma once
// The roofline charts' colours, in one place: one colour per roof (each memory level and each precision), and a
// point's colour is the colour of the roof that bounds it, so the legend of roofs is also the legend of points.
#include <QColor>
#include <QString>
#include <string>

#include "core/roofline/kernel_metrics.h"

namespace gpuscope::ui {

QColor roofColour(MemoryLevel level);
QColor roofColour(Precision precision);
// The colour of the roof LIMITER names ("DRAM", "L2", "L1", "FP32 peak", ...; see RooflineAssessment), grey
// for none.
QColor boundColour(const std::string& limiter);
// "DRAM-bound", "Compute-bound (FP32)", or "No roof" for an empty LIMITER.
QString boundClassName(const std::string& limiter);

}  // namespace gpuscope::ui
