#include "ui/text.h"

#include <cmath>

#include "core/text/units.h"

namespace gpuscope::ui {

QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

QString roundedDurationText(double ns) { return durationText(static_cast<TimeNs>(std::llround(ns))); }

QString bytesText(int64_t bytes) { return QString::fromStdString(formatBytes(bytes)); }

QString countText(uint64_t count) { return QString::fromStdString(formatCount(count)); }

QString engineeringLabel(double value, std::string_view unit, int significant) {
  return QString::fromStdString(engineeringText(value, unit, significant));
}

QString flopRateLabel(double flopsPerSecond) { return QString::fromStdString(flopRateText(flopsPerSecond)); }

QString bandwidthLabel(double bytesPerSecond) { return QString::fromStdString(bandwidthText(bytesPerSecond)); }

QString intensityLabel(double flopsPerByte) { return QString::fromStdString(intensityText(flopsPerByte)); }

}  // namespace gpuscope::ui
