#pragma once
// Helpers for the roofline chart tests: the chart's series as a user sees them.
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QString>

#include "ui/roofline/roofline_view.h"

namespace gpuscope::ui::test {

// The series of the kernels' points (the selection ring left out), or null.
inline QScatterSeries* pointSeries(const RooflineView& view) {
  for (auto* series : view.chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(series); scatter && scatter != view.selectionSeries())
      return scatter;
  return nullptr;
}

// The first roof whose name starts with PREFIX, or null.
inline QLineSeries* lineNamed(const RooflineView& view, const QString& prefix) {
  for (auto* series : view.chart()->series())
    if (auto* line = qobject_cast<QLineSeries*>(series);
        line && !qobject_cast<QScatterSeries*>(series) && line->name().startsWith(prefix))
      return line;
  return nullptr;
}

}  // namespace gpuscope::ui::test
