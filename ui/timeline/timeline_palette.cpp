#include "ui/timeline/timeline_palette.h"

#include <QHash>

#include "core/schema/nsys_enums.h"

namespace gpuscope::ui {
namespace {

uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// A hue in [from, from + width) and small lightness steps, picked by the name's key.
QColor hashed(uint32_t name, int from, int width, int saturation, int value) {
  uint32_t h = mix(name + 0x9e3779b9U);
  int hue = (from + static_cast<int>(h % static_cast<uint32_t>(width))) % 360;
  int v = value - static_cast<int>((h >> 12) % 4) * 12;
  return QColor::fromHsv(hue, saturation, v);
}

}  // namespace

uint32_t nameColorKey(const QString& shownName) { return static_cast<uint32_t>(qHash(shownName, 0)); }

QColor eventColor(TrackKind kind, uint32_t name, uint32_t style) {
  switch (kind) {
    case TrackKind::CudaApi:
      return hashed(name, 165, 40, 120, 225);
    case TrackKind::Nvtx:
      if (style != 0) return QColor::fromRgb(style & 0xFFFFFFu);  // ARGB: alpha is ignored
      return hashed(name, 0, 360, 80, 235);
    case TrackKind::OsRuntime:
      return hashed(name, 20, 30, 70, 205);
    case TrackKind::GpuKernels:
      return hashed(name, 195, 70, 150, 230);
    case TrackKind::GpuMemory:
      switch (style) {
        case nsys_enum::kCopyHtoD:
        case nsys_enum::kCopyHtoA:
          return QColor(0x3c, 0xb3, 0x4a);
        case nsys_enum::kCopyDtoH:
        case nsys_enum::kCopyAtoH:
          return QColor(0xd6, 0x45, 0x45);
        case nsys_enum::kCopyAtoA:
        case nsys_enum::kCopyAtoD:
        case nsys_enum::kCopyDtoA:
        case nsys_enum::kCopyDtoD:
          return QColor(0xe8, 0xa3, 0x17);
        case nsys_enum::kCopyHtoH:
          return QColor(0x9a, 0x7b, 0x4f);
        case nsys_enum::kCopyPtoP:
          return QColor(0x8e, 0x5c, 0xd6);
        case kMemsetStyle:
          return QColor(0x6b, 0x80, 0x99);
        default:
          return QColor(0x88, 0x88, 0x88);
      }
  }
  return QColor(0x88, 0x88, 0x88);
}

QColor foldColor(TrackKind kind) {
  switch (kind) {
    case TrackKind::CudaApi:
      return QColor(0x4f, 0x8a, 0x86);
    case TrackKind::Nvtx:
      return QColor(0x86, 0x78, 0x96);
    case TrackKind::OsRuntime:
      return QColor(0x8a, 0x7a, 0x66);
    case TrackKind::GpuKernels:
      return QColor(0x3d, 0x63, 0x9a);
    case TrackKind::GpuMemory:
      return QColor(0x6f, 0x76, 0x5a);
  }
  return QColor(0x70, 0x70, 0x70);
}

QColor textColorOn(const QColor& fill) {
  // Rec. 709 luma on 0-255 components.
  double luma = 0.2126 * fill.red() + 0.7152 * fill.green() + 0.0722 * fill.blue();
  return luma > 140 ? QColor(0x10, 0x14, 0x18) : QColor(0xff, 0xff, 0xff);
}

QString memoryKindName(uint32_t style) {
  if (style == kMemsetStyle) return QStringLiteral("memset");
  std::string_view label = nsys_enum::memcpyKindLabel(style);
  if (style == 0 || label.empty()) return QStringLiteral("unknown copy kind");
  return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

QColor threadActivityColor(ThreadActivity activity) {
  switch (activity) {
    case ThreadActivity::Running:
      return {0x3a, 0xa8, 0x5c};
    case ThreadActivity::Preempted:
      return {0xf0, 0xa0, 0x30};
    case ThreadActivity::Sleeping:
      return {0xa9, 0xc4, 0xe4};
    case ThreadActivity::BlockedIo:
      return {0xd6, 0x4f, 0x45};
    case ThreadActivity::OffCpu:
      return {0xc3, 0xc8, 0xcf};
    case ThreadActivity::Terminated:
      return {0xe6, 0xe8, 0xeb};
  }
  return {0xc3, 0xc8, 0xcf};
}

}  // namespace gpuscope::ui
