#include "ui/roofline/roofline_palette.h"

#include <array>

namespace gpuscope::ui {
namespace {

// Ten well separated hues (the Tableau 10 set), three for memory roofs, four for compute roofs.
constexpr std::array<QRgb, 3> kMemory = {0x1f77b4, 0xff7f0e, 0x2ca02c};             // DRAM, L2, L1
constexpr std::array<QRgb, 4> kCompute = {0x9467bd, 0xd62728, 0x8c564b, 0xe377c2};  // FP64, FP32, FP16, Tensor
constexpr QRgb kNoRoof = 0x7f7f7f;
constexpr std::string_view kPeakSuffix = " peak";

}  // namespace

QColor roofColour(MemoryLevel level) { return QColor(kMemory[static_cast<size_t>(level)]); }

QColor roofColour(Precision precision) { return QColor(kCompute[static_cast<size_t>(precision)]); }

QColor boundColour(const std::string& limiter) {
  for (auto level : kMemoryLevels)
    if (limiter == memoryLevelName(level)) return roofColour(level);
  for (auto precision : kPrecisions)
    if (limiter == std::string(precisionName(precision)) + std::string(kPeakSuffix)) return roofColour(precision);
  return QColor(kNoRoof);
}

QString boundClassName(const std::string& limiter) {
  if (limiter.empty()) return QStringLiteral("No roof");
  auto peak = limiter.find(kPeakSuffix);
  if (peak != std::string::npos) return "Compute-bound (" + QString::fromStdString(limiter.substr(0, peak)) + ")";
  return QString::fromStdString(limiter) + "-bound";
}

}  // namespace gpuscope::ui
