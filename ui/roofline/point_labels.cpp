#include "ui/roofline/point_labels.h"

#include <QHash>
#include <algorithm>
#include <cmath>

namespace gpuscope::ui {
namespace {

constexpr double kGap = 3;           // pixels between a disc and its name
constexpr double kWidening = 1.4;    // how much more room a name gets per round while it reads like another
constexpr int kWideningRounds = 12;  // enough to reach any name's whole width

// Whether RECT covers any of DISC (a circle inscribed in its square).
bool coversDisc(const QRectF& rect, const QRectF& disc) {
  QPointF centre = disc.center();
  double radius = disc.width() / 2;
  double dx = centre.x() - std::clamp(centre.x(), rect.left(), rect.right());
  double dy = centre.y() - std::clamp(centre.y(), rect.top(), rect.bottom());
  return dx * dx + dy * dy < radius * radius;
}

// The places tried for a name, best first: right of the disc (where one reads on), left, above, below, then
// the four diagonals.
std::vector<QRectF> candidates(const QRectF& disc, const QSizeF& size) {
  QPointF c = disc.center();
  double r = disc.width() / 2;
  double w = size.width(), h = size.height();
  double diagonal = r * std::sqrt(0.5);
  auto at = [&](double x, double y) { return QRectF(x, y, w, h); };
  return {at(c.x() + r + kGap, c.y() - h / 2),
          at(c.x() - r - kGap - w, c.y() - h / 2),
          at(c.x() - w / 2, c.y() - r - kGap - h),
          at(c.x() - w / 2, c.y() + r + kGap),
          at(c.x() + diagonal + kGap, c.y() - diagonal - h),
          at(c.x() + diagonal + kGap, c.y() + diagonal),
          at(c.x() - diagonal - kGap - w, c.y() - diagonal - h),
          at(c.x() - diagonal - kGap - w, c.y() + diagonal)};
}

}  // namespace

QStringList middleElidedNames(const QStringList& names, const QFontMetricsF& metrics, double width) {
  std::vector<double> widths(static_cast<size_t>(names.size()), width);
  QStringList shown;
  for (const auto& name : names) shown << metrics.elidedText(name, Qt::ElideMiddle, width);
  for (int round = 0; round < kWideningRounds; ++round) {
    // The shown texts that stand for more than one name.
    QHash<QString, QString> nameOf;
    QHash<QString, bool> ambiguous;
    for (qsizetype i = 0; i < names.size(); ++i) {
      auto it = nameOf.find(shown[i]);
      if (it == nameOf.end())
        nameOf.insert(shown[i], names[i]);
      else if (*it != names[i])
        ambiguous[shown[i]] = true;
    }
    if (ambiguous.isEmpty()) break;
    for (qsizetype i = 0; i < names.size(); ++i) {
      if (!ambiguous.value(shown[i])) continue;
      auto& room = widths[static_cast<size_t>(i)];
      room *= kWidening;
      shown[i] = metrics.elidedText(names[i], Qt::ElideMiddle, room);
    }
  }
  return shown;
}

std::vector<std::optional<QRectF>> placeLabels(const std::vector<LabelledDisc>& discs, const std::vector<size_t>& order,
                                               const QRectF& bounds) {
  std::vector<std::optional<QRectF>> placed(discs.size());
  std::vector<QRectF> taken;
  for (size_t index : order) {
    if (index >= discs.size()) continue;
    for (const QRectF& rect : candidates(discs[index].disc, discs[index].label)) {
      if (!bounds.contains(rect)) continue;
      bool free = std::none_of(taken.begin(), taken.end(), [&](const QRectF& other) { return other.intersects(rect); });
      for (size_t other = 0; free && other < discs.size(); ++other)
        free = other == index || !coversDisc(rect, discs[other].disc);
      if (!free) continue;
      placed[index] = rect;
      taken.push_back(rect);
      break;
    }
  }
  return placed;
}

}  // namespace gpuscope::ui
