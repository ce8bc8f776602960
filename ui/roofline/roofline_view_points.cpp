// RooflineView's drawn points: their time discs and names, the point under the mouse (hover, tooltip,
// click) and the ring around the session's selected kernel.
#include <QChart>
#include <QCheckBox>
#include <QGraphicsEllipseItem>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineF>
#include <QScatterSeries>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/model/global_id.h"
#include "ui/roofline/point_labels.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_point_text.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

// Names are placed for at most this many points, the biggest: beyond that they could not be read anyway.
constexpr size_t kMostLabels = 200;

uint64_t kernelKey(int64_t globalPid, uint32_t correlationId) {
  return uint64_t{global_id::pid(globalPid)} << 32 | correlationId;
}

}  // namespace

void RooflineView::placeDiscs() {
  QRectF plot = chart_->plotArea();
  std::vector<LabelledDisc> shown;  // the discs in the plot, for the names
  std::vector<size_t> shownIndex;   // their placed_ index
  for (size_t i = 0; i < discs_.size() && i < placed_.size(); ++i) {
    QPointF centre = chartView_->chartPosition(placed_[i].second);
    double radius = placedSizes_[i] / 2;
    discs_[i]->setRect(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius);
    discs_[i]->setVisible(plot.contains(centre));
    labels_[i]->setVisible(false);
    if (!plot.contains(centre)) continue;
    shown.push_back({discs_[i]->rect(), labels_[i]->boundingRect().size()});
    shownIndex.push_back(i);
  }
  labelsNote_->setVisible(false);
  if (!labelsBox_->isChecked()) return;
  // Names of the biggest points first; a name that would cover another name or disc is left out.
  std::vector<size_t> order(shown.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return shown[a].disc.width() > shown[b].disc.width(); });
  // Launches of one kernel that sit on one spot are named once: a second name would only repeat the first.
  std::vector<QString> texts;
  for (size_t index : shownIndex) texts.push_back(labels_[index]->text());
  auto twins = twinsOfEarlier(shown, texts, order);
  std::erase_if(order, [&](size_t i) { return twins[i]; });
  if (order.size() > kMostLabels) order.resize(kMostLabels);
  auto rects = placeLabels(shown, order, plot);
  int unnamed = 0;
  for (size_t i = 0; i < rects.size(); ++i) {
    if (!rects[i]) {
      unnamed += twins[i] ? 0 : 1;
      continue;
    }
    auto* label = labels_[shownIndex[i]];
    label->setPos(rects[i]->topLeft());
    label->setVisible(true);
  }
  labelsNote_->setText(unnamed == 1 ? tr("1 point had no room for a name: hover it.")
                                    : tr("%1 points had no room for a name: hover them.").arg(unnamed));
  labelsNote_->setVisible(unnamed > 0);
}

void RooflineView::showHover(QPointF viewportPosition) {
  auto index = pointAtPosition(viewportPosition);
  if (index == hovered_) return;
  hovered_ = index;
  if (index)
    QToolTip::showText(chartView_->viewport()->mapToGlobal(viewportPosition.toPoint()), pointDescription(*index),
                       chartView_);
  else
    QToolTip::hideText();
}

std::optional<size_t> RooflineView::pointAtPosition(QPointF viewportPosition) const {
  std::optional<size_t> best;
  double bestDistance = 0;
  for (size_t i = 0; i < placed_.size(); ++i) {
    double distance = QLineF(chartView_->viewportPosition(placed_[i].second), viewportPosition).length();
    if (distance > std::max(6.0, placedSizes_[i] / 2 + 2)) continue;
    if (!best || distance < bestDistance) {
      best = placed_[i].first;
      bestDistance = distance;
    }
  }
  return best;
}

void RooflineView::updateSelection() {
  if (!selectionSeries_) return;
  selectionSeries_->clear();
  const auto& trace = session_->trace();
  const auto& selection = session_->selection();
  if (!trace || !selection || trace->track(selection->track).kind != TrackKind::GpuKernels) return;
  auto key = kernelKey(trace->track(selection->track).globalTid, trace->lane(*selection).correlation[selection->index]);
  // The selected kernel's own metrics row, then the point that holds it.
  const RooflineKernel* kernel =
      data_.kernelOf(trace->track(selection->track).globalTid, trace->lane(*selection).correlation[selection->index]);
  if (!kernel) return;
  for (const auto& [index, position] : placed_) {
    const auto& point = points_[index];
    bool holds =
        grouping() == RooflineGrouping::Instance
            ? kernelKey(point.globalPid, point.correlationId) == key
            : grouping() == RooflineGrouping::Name && point.label == kernel->name && point.deviceId == kernel->deviceId;
    if (!holds) continue;
    selectionSeries_->append(position);
    showPointDetails(index);  // a kernel selected anywhere shows its point's details here
  }
}

std::optional<size_t> RooflineView::pointAt(const QScatterSeries* series, QPointF value) const {
  const auto& indices = drawnPoints(series);
  std::optional<size_t> best;
  double bestDistance = 0;
  auto positions = series->points();
  for (int i = 0; i < positions.size() && i < static_cast<int>(indices.size()); ++i) {
    // Log-space distance, as the axes are logarithmic.
    double dx = std::log10(positions[i].x()) - std::log10(std::max(value.x(), 1e-300));
    double dy = std::log10(positions[i].y()) - std::log10(std::max(value.y(), 1e-300));
    double distance = dx * dx + dy * dy;
    if (!best || distance < bestDistance) {
      best = indices[static_cast<size_t>(i)];
      bestDistance = distance;
    }
  }
  return best;
}

QString RooflineView::pointDescription(size_t pointIndex) const {
  return rooflinePointDescription(points_.at(pointIndex), roofs_, level());
}

void RooflineView::showPointDetails(size_t pointIndex) {
  QString text = breakableAtUnderscores(pointDescription(pointIndex));
  if (data_.eventOf(points_.at(pointIndex)))
    text += QStringLiteral("<p><a href=\"point:%1\">%2</a></p>").arg(pointIndex).arg(tr("Show on the timeline"));
  details_->setText(text);
}

void RooflineView::openDetailsLink(const QString& link) {
  bool ok = false;
  size_t index = link.section(QLatin1Char(':'), 1).toULongLong(&ok);
  if (ok && index < points_.size()) showPointOnTimeline(index);
}

void RooflineView::activatePoint(size_t pointIndex) {
  showPointDetails(pointIndex);
  if (auto event = data_.eventOf(points_.at(pointIndex))) session_->focusEvent(*event);
}

void RooflineView::showPointOnTimeline(size_t pointIndex) {
  if (!data_.eventOf(points_.at(pointIndex))) return;
  activatePoint(pointIndex);
  emit showTimelineRequested();
}
}  // namespace gpuscope::ui
