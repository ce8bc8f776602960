#pragma once
// The units of core/text/units as QStrings, for every widget and model of the viewer: one wrapper per
// unit, here, so that a view never spells QString::fromStdString(formatDuration(...)) itself and a
// duration, a size or a rate reads the same in the timeline, the tables, the compare view and the
// roofline. The "Label" names are the rates, whose std::string forms (flopRateText, ...) core owns.
#include <QString>
#include <cstdint>
#include <string_view>

#include "core/model/trace_types.h"

namespace gpuscope::ui {

// "1.234 ms", "56.700 us", "890 ns": formatDuration.
QString durationText(TimeNs ns);
// A duration held as a double (an average, a delta), rounded to the nanosecond.
QString roundedDurationText(double ns);
// "512 B", "1.50 KiB": formatBytes.
QString bytesText(int64_t bytes);
// "1,234,567": formatCount.
QString countText(uint64_t count);
// "467 GFLOP/s": engineeringText.
QString engineeringLabel(double value, std::string_view unit, int significant = 3);
// "66.9 TFLOP/s", "3.352 TB/s", "0.1733 FLOP/byte": flopRateText, bandwidthText, intensityText.
QString flopRateLabel(double flopsPerSecond);
QString bandwidthLabel(double bytesPerSecond);
QString intensityLabel(double flopsPerByte);

}  // namespace gpuscope::ui
