#include "ui/roofline/roofline_point_text.h"

#include <QColor>
#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include "ui/roofline/roofline_palette.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

QString tr(const char* text, int n = -1) { return QCoreApplication::translate("RooflineView", text, nullptr, n); }

QString number(double value, int decimals = 0) { return QLocale(QLocale::English).toString(value, 'f', decimals); }

QString levelName(MemoryLevel level) { return QString::fromUtf8(memoryLevelName(level).data()); }

}  // namespace

QString breakableAtUnderscores(QString text) { return text.replace('_', QStringLiteral("_\u200B")); }

QString rooflinePointDescription(const RooflinePoint& point, const DeviceRoofs& roofs, MemoryLevel level) {
  auto assessment = assessPoint(point, roofs);
  QStringList lines;
  lines << "<b>" + QString::fromStdString(point.label).toHtmlEscaped() + "</b>";
  lines << (point.instances == 1 ? tr("1 kernel") : tr("%1 kernels").arg(point.instances));
  lines << tr("Duration: %1").arg(durationText(point.durationNs));
  lines << tr("Performance: %1").arg(flopRateLabel(assessment.achievedFlopsPerSecond));
  if (const auto& intensity = assessment.intensityOf(level))
    lines << tr("Arithmetic intensity (%1): %2").arg(levelName(level), intensityLabel(*intensity));
  QColor colour = boundColour(assessment.limiter);
  lines
      << tr("Bound: <span style=\"color:%1\">&#9632;</span> %2").arg(colour.name(), boundClassName(assessment.limiter));
  for (auto precision : kPrecisions)
    if (point.flopsOf(precision))
      lines << tr("%1 FLOPs: %2")
                   .arg(QString::fromUtf8(precisionName(precision).data()), number(*point.flopsOf(precision)));
  for (auto memory : kMemoryLevels) {
    if (!point.bytesOf(memory)) continue;
    QString line = tr("%1 bytes: %2").arg(levelName(memory), number(*point.bytesOf(memory)));
    if (assessment.intensityOf(memory)) line += tr(" (%1 FLOP/byte)").arg(number(*assessment.intensityOf(memory), 4));
    lines << line;
  }
  if (assessment.attainableFlopsPerSecond)
    lines << tr("Attainable: %1, bound by %2")
                 .arg(flopRateLabel(*assessment.attainableFlopsPerSecond), QString::fromStdString(assessment.limiter));
  if (assessment.shareOfAttainable)
    lines << tr("%1% of attainable").arg(number(*assessment.shareOfAttainable * 100, 1));
  return lines.join("<br>");
}

}  // namespace gpuscope::ui
