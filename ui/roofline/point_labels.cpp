#include "ui/roofline/point_labels.h"

#include <QHash>
#include <algorithm>
#include <cmath>

namespace gpuscope::ui {
namespace {

constexpr double kGap = 3;          // pixels between a disc and its name
constexpr double kWidening = 1.4;   // how much more room a name gets per round while it reads like another
constexpr int kWideningRounds = 3;  // 1.4^3 > kMostWidening

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

// The indexes of NAMES whose SHOWN text stands for more than one name.
std::vector<qsizetype> ambiguousOnes(const QStringList& names, const QStringList& shown) {
  QHash<QString, QString> nameOf;
  QHash<QString, bool> ambiguous;
  for (qsizetype i = 0; i < names.size(); ++i) {
    auto it = nameOf.find(shown[i]);
    if (it == nameOf.end())
      nameOf.insert(shown[i], names[i]);
    else if (*it != names[i])
      ambiguous[shown[i]] = true;
  }
  std::vector<qsizetype> indexes;
  for (qsizetype i = 0; i < names.size(); ++i)
    if (ambiguous.value(shown[i])) indexes.push_back(i);
  return indexes;
}

// Where name SELF parts from every other name shown as it is: the length of its longest common start with one.
qsizetype distinctAt(const QStringList& names, const QStringList& shown, qsizetype self) {
  qsizetype at = 0;
  for (qsizetype j = 0; j < names.size(); ++j) {
    if (j == self || shown[j] != shown[self] || names[j] == names[self]) continue;
    qsizetype common = 0;
    while (common < names[j].size() && common < names[self].size() && names[j][common] == names[self][common]) ++common;
    at = std::max(at, common);
  }
  return at;
}

// NAME in ROOM pixels as its start, the characters around AT, and its end, each cut where it must ("…").
QString elidedAround(const QString& name, qsizetype at, const QFontMetricsF& metrics, double room) {
  constexpr qsizetype kBefore = 6;  // characters kept before the one that differs
  constexpr qsizetype kPart = 16;
  qsizetype from = std::max<qsizetype>(0, at - kBefore);
  QString part = name.mid(from, kPart);
  double ends = std::max(0.0, room - metrics.horizontalAdvance(part)) / 2;
  QString head = metrics.elidedText(name.left(from), Qt::ElideRight, ends);
  QString tail = metrics.elidedText(name.mid(from + kPart), Qt::ElideLeft, ends);
  return head + part + tail;
}

}  // namespace

QStringList middleElidedNames(const QStringList& names, const QFontMetricsF& metrics, double width) {
  std::vector<double> widths(static_cast<size_t>(names.size()), width);
  QStringList shown;
  for (const auto& name : names) shown << metrics.elidedText(name, Qt::ElideMiddle, width);
  for (int round = 0; round < kWideningRounds; ++round) {
    auto ambiguous = ambiguousOnes(names, shown);
    if (ambiguous.empty()) return shown;
    for (qsizetype i : ambiguous) {
      auto& room = widths[static_cast<size_t>(i)];
      room = std::min(room * kWidening, width * kMostWidening);
      shown[i] = metrics.elidedText(names[i], Qt::ElideMiddle, room);
    }
  }
  // Still alike at the most room: each shows the part where it parts from the names it reads like.
  auto ambiguous = ambiguousOnes(names, shown);
  std::vector<qsizetype> partsAt;
  for (qsizetype i : ambiguous) partsAt.push_back(distinctAt(names, shown, i));
  for (size_t k = 0; k < ambiguous.size(); ++k)
    shown[ambiguous[k]] = elidedAround(names[ambiguous[k]], partsAt[k], metrics, width * kMostWidening);
  return shown;
}

std::vector<bool> twinsOfEarlier(const std::vector<LabelledDisc>& discs, const std::vector<QString>& texts,
                                 const std::vector<size_t>& order) {
  std::vector<bool> twin(discs.size(), false);
  for (size_t k = 0; k < order.size(); ++k) {
    size_t index = order[k];
    for (size_t j = 0; j < k && !twin[index]; ++j) {
      size_t earlier = order[j];
      if (twin[earlier] || texts[earlier] != texts[index]) continue;
      twin[index] = coversDisc(QRectF(discs[index].disc.center(), QSizeF(0, 0)), discs[earlier].disc) ||
                    discs[index].disc.center() == discs[earlier].disc.center();
    }
  }
  return twin;
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
