#include "ui/roofline/roofline_view.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/roofline/roofline_range.h"
#include "ui/roofline/point_labels.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_palette.h"
#include "ui/roofline/roofline_point_text.h"
#include "ui/session/trace_session.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

// A point's name as a label is about this many average characters wide; the tooltip has the whole name.
constexpr double kLabelCharacters = 30;

// " (measured)" after a roof that was measured on the GPU; theoretical roofs say nothing.
QString measuredTag(RoofSource source) {
  return source == RoofSource::Measured ? QStringLiteral(" (measured)") : QString();
}

QToolButton* toggle(const QString& text, const QString& tip, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setText(text);
  button->setToolTip(tip);
  button->setCheckable(true);
  button->setChecked(true);
  button->setAutoRaise(false);
  return button;
}

}  // namespace

RooflineView::RooflineView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      levelBox_(new QComboBox(this)),
      kindBox_(new QComboBox(this)),
      resetZoom_(new QPushButton(tr("Reset zoom"), this)),
      chart_(new QChart()),
      chartView_(new RooflineChartView(chart_, this)),
      message_(new QLabel(this)),
      labelsBox_(new QCheckBox(tr("Labels"), this)),
      labelsNote_(new QLabel(this)),
      details_(new QLabel(this)) {
  for (auto level : kMemoryLevels)
    levelBox_->addItem(QString::fromUtf8(memoryLevelName(level).data()), static_cast<int>(level));
  kindBox_->addItem(tr("Kernel instances"), static_cast<int>(RooflineGrouping::Instance));
  kindBox_->addItem(tr("Kernels by name"), static_cast<int>(RooflineGrouping::Name));
  kindBox_->addItem(tr("NVTX ranges"), static_cast<int>(RooflineGrouping::Nvtx));
  kindBox_->setCurrentIndex(1);
  auto* controls = new QHBoxLayout();
  controls->addWidget(new QLabel(tr("Memory level:"), this));
  controls->addWidget(levelBox_);
  controls->addSpacing(16);
  controls->addWidget(new QLabel(tr("Points:"), this));
  controls->addWidget(kindBox_);
  controls->addSpacing(16);
  controls->addWidget(labelsBox_);
  controls->addWidget(labelsNote_);
  labelsNote_->setObjectName(QStringLiteral("rooflineLabelsNote"));
  labelsNote_->setVisible(false);
  labelsBox_->setToolTip(tr("Write each point's kernel or range name beside it"));
  connect(labelsBox_, &QCheckBox::toggled, this, [this] { placeDiscs(); });
  controls->addStretch(1);
  controls->addWidget(resetZoom_);
  // Which roofs are drawn: memory levels and precisions, any number at once.
  auto* roofs = new QHBoxLayout();
  roofs->addWidget(new QLabel(tr("Memory roofs:"), this));
  for (auto level : kMemoryLevels) {
    QString name = QString::fromUtf8(memoryLevelName(level).data());
    auto* button = toggle(name, tr("Show or hide the %1 bandwidth roof").arg(name), this);
    levelToggles_[static_cast<size_t>(level)] = button;
    roofs->addWidget(button);
    connect(button, &QToolButton::toggled, this, [this] { rebuildChart(true); });
  }
  roofs->addSpacing(16);
  roofs->addWidget(new QLabel(tr("Compute ceilings:"), this));
  for (auto precision : kPrecisions) {
    QString name = QString::fromUtf8(precisionName(precision).data());
    auto* button = toggle(name, tr("Show or hide the %1 peak").arg(name), this);
    precisionToggles_[static_cast<size_t>(precision)] = button;
    roofs->addWidget(button);
    connect(button, &QToolButton::toggled, this, [this] { rebuildChart(true); });
  }
  roofs->addStretch(1);
  resetZoom_->setToolTip(tr("Show the whole chart again (R). Drag a rectangle or turn the wheel to zoom."));
  connect(resetZoom_, &QPushButton::clicked, chartView_, &RooflineChartView::resetZoom);
  connect(chartView_, &RooflineChartView::rangeChanged, this, [this] {
    resetZoom_->setEnabled(chartView_->isZoomed());
    placeDiscs();
  });
  connect(chart_, &QChart::plotAreaChanged, this, [this] { placeDiscs(); });
  chartView_->setPointHitTest([this](QPointF position) { return pointAtPosition(position).has_value(); });
  chartView_->setPointToolTip([this](QPointF position) {
    auto index = pointAtPosition(position);
    return index ? pointDescription(*index) : QString();
  });
  connect(chartView_, &RooflineChartView::pointClicked, this, [this](QPointF position) {
    if (auto index = pointAtPosition(position)) activatePoint(*index);
  });
  connect(chartView_, &RooflineChartView::pointDoubleClicked, this, [this](QPointF position) {
    if (auto index = pointAtPosition(position)) showPointOnTimeline(*index);
  });
  connect(chartView_, &RooflineChartView::hovered, this, &RooflineView::showHover);
  // The clicked point's details beside the chart, so the Roofline tab answers a click by itself.
  details_->setObjectName(QStringLiteral("rooflinePointDetails"));
  details_->setWordWrap(true);
  details_->setTextFormat(Qt::RichText);
  details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  details_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  connect(details_, &QLabel::linkActivated, this, &RooflineView::openDetailsLink);
  details_->setFixedWidth(280);
  auto* chartAndDetails = new QHBoxLayout();
  chartAndDetails->addWidget(chartView_, 1);
  chartAndDetails->addWidget(details_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(roofs);
  layout->addLayout(chartAndDetails, 1);
  layout->addWidget(message_);
  message_->setWordWrap(true);
  chart_->setTitle(tr("Roofline"));
  chart_->legend()->setAlignment(Qt::AlignRight);
  connect(levelBox_, &QComboBox::currentIndexChanged, this, [this] {
    // The chosen level's roof is the one its points sit under: show it.
    QSignalBlocker block(levelToggle(level()));
    levelToggle(level())->setChecked(true);
    rebuildChart();
  });
  connect(kindBox_, &QComboBox::currentIndexChanged, this, [this] { rebuildPoints(); });
  connect(session_, &TraceSession::traceChanged, this, [this] { reload(); });
  connect(session_, &TraceSession::selectionChanged, this, [this] { updateSelection(); });
  reload();
}

QString RooflineView::message() const { return message_->text(); }

QString RooflineView::pointDetails() const { return details_->text(); }

MemoryLevel RooflineView::level() const { return static_cast<MemoryLevel>(levelBox_->currentData().toInt()); }

RooflineGrouping RooflineView::grouping() const {
  return static_cast<RooflineGrouping>(kindBox_->currentData().toInt());
}

const std::vector<size_t>& RooflineView::drawnPoints(const QScatterSeries* series) const {
  static const std::vector<size_t> kNone;
  auto it = drawn_.find(series);
  return it == drawn_.end() ? kNone : it->second;
}

void RooflineView::reload() {
  data_ = session_->trace() ? loadRooflineChart(*session_->trace()) : RooflineChart{};
  roofs_ = data_.roofs();
  if (data_.hasMetrics()) {
    // FP64, FP32 and (where the GPU has tensor cores) Tensor ceilings; FP16 where some kernel counted FP16 FLOPs.
    bool fp16 = std::any_of(data_.kernels.begin(), data_.kernels.end(),
                            [](const RooflineKernel& k) { return k.metrics.flopsOf(Precision::Fp16).value_or(0) > 0; });
    for (auto [precision, shown] :
         {std::pair{Precision::Fp16, fp16}, std::pair{Precision::Tensor, roofs_.peak(Precision::Tensor) > 0}}) {
      QSignalBlocker block(precisionToggle(precision));
      precisionToggle(precision)->setChecked(shown);
    }
    // A roof this GPU has no figure for cannot be drawn: its button says so and stays off-limits.
    for (auto memory : kMemoryLevels) {
      QString name = QString::fromUtf8(memoryLevelName(memory).data());
      bool known = roofs_.bandwidthOf(memory) > 0;
      levelToggle(memory)->setEnabled(known);
      levelToggle(memory)->setToolTip(known ? tr("Show or hide the %1 bandwidth roof").arg(name)
                                            : tr("The %1 bandwidth of this GPU is not known").arg(name));
    }
    for (auto precision : kPrecisions) {
      QString name = QString::fromUtf8(precisionName(precision).data());
      bool known = roofs_.peak(precision) > 0;
      precisionToggle(precision)->setEnabled(known);
      precisionToggle(precision)->setToolTip(known ? tr("Show or hide the %1 peak").arg(name)
                                                   : tr("The %1 peak of this GPU is not known").arg(name));
    }
  }
  rebuildPoints();
}

void RooflineView::rebuildPoints() {
  points_ = data_.points(grouping());
  rebuildChart();
}

std::vector<MemoryLevel> RooflineView::shownLevels() const {
  std::vector<MemoryLevel> levels;
  for (auto level : kMemoryLevels)
    if (levelToggle(level)->isChecked()) levels.push_back(level);
  return levels;
}

std::vector<Precision> RooflineView::shownPrecisions() const {
  std::vector<Precision> precisions;
  for (auto precision : kPrecisions)
    if (precisionToggle(precision)->isChecked()) precisions.push_back(precision);
  return precisions;
}

void RooflineView::addRoofs(double xMin, double xMax) {
  // GB/s: with GFLOP/s on y, a memory roof is y = x * GB/s.
  double highest = 0, widest = 0;
  for (auto precision : shownPrecisions()) highest = std::max(highest, roofs_.peak(precision) / 1e9);
  for (auto memory : shownLevels()) {
    double bandwidth = roofs_.bandwidthOf(memory) / 1e9;
    if (bandwidth <= 0) continue;
    widest = std::max(widest, bandwidth);
    auto* line = new QLineSeries();
    line->setName(QString::fromUtf8(memoryLevelName(memory).data()) + " " + bandwidthLabel(bandwidth * 1e9) +
                  measuredTag(roofs_.sourceOf(memory)));
    double xEnd = highest > 0 ? highest / bandwidth : xMax;
    line->append(xMin, xMin * bandwidth);
    line->append(xEnd, xEnd * bandwidth);
    QPen pen(roofColour(memory), 2);
    if (memory != level()) pen.setStyle(Qt::DashDotLine);  // a roof for other points than those drawn
    line->setPen(pen);
    chart_->addSeries(line);
  }
  for (auto precision : shownPrecisions()) {
    double peak = roofs_.peak(precision) / 1e9;
    if (peak <= 0) continue;
    auto* compute = new QLineSeries();
    compute->setName(QString::fromUtf8(precisionName(precision).data()) + " peak " + flopRateLabel(peak * 1e9) +
                     measuredTag(roofs_.sourceOf(precision)));
    compute->append(widest > 0 ? peak / widest : xMin, peak);
    compute->append(xMax, peak);
    QPen pen(roofColour(precision), 2);
    compute->setPen(pen);
    chart_->addSeries(compute);
  }
}

void RooflineView::rebuildChart(bool keepZoom) {
  QRectF zoomed = keepZoom && chartView_->isZoomed() ? chartView_->visibleRange() : QRectF();
  chart_->removeAllSeries();
  chartView_->clearAxes();
  drawn_.clear();
  placed_.clear();
  placedSizes_.clear();
  qDeleteAll(discs_);
  discs_.clear();
  qDeleteAll(labels_);
  labels_.clear();
  hovered_.reset();
  details_->clear();
  selectionSeries_ = nullptr;
  resetZoom_->setEnabled(false);
  if (!session_->hasTrace()) {
    message_->setText(tr("Open a trace to see its roofline."));
    return;
  }
  if (!data_.hasMetrics()) {
    message_->setText(
        tr("This trace has no kernel metrics. Attach an Nsight Compute report with File > Import ncu Metrics, "
           "or with `gpuscope import-ncu TRACE REPORT.csv -o OUT.sqlite` and open OUT.sqlite."));
    return;
  }
  details_->setText(tr("<i>Click a point to see its details here.</i>"));
  // Where each point goes: x = intensity at the chosen level, y = achieved GFLOP/s.
  struct Placed {
    size_t index;
    double x, y;
    std::string limiter;
  };
  std::vector<Placed> placed;
  std::vector<RooflineXY> drawable;
  size_t undrawn = 0;
  int64_t longest = 1;
  for (size_t i = 0; i < points_.size(); ++i) {
    const auto& point = points_[i];
    longest = std::max(longest, point.durationNs);
    auto assessment = assessPoint(point, roofs_);
    const auto& intensity = assessment.intensityOf(level());
    RooflineXY at{intensity.value_or(0), assessment.achievedFlopsPerSecond / 1e9};
    if (!isDrawable(at)) {
      ++undrawn;
      continue;
    }
    placed.push_back({i, at.x, at.y, assessment.limiter});
    drawable.push_back(at);
  }
  double highest = 0;
  for (auto precision : shownPrecisions()) highest = std::max(highest, roofs_.peak(precision) / 1e9);
  std::vector<double> bandwidths;
  for (auto memory : shownLevels()) bandwidths.push_back(roofs_.bandwidthOf(memory) / 1e9);
  // Decades around everything drawn, sane for any data (a report matched to the wrong trace included).
  RooflineRange home = rooflineHomeRange(drawable, highest, bandwidths);
  double xMin = home.x.min, xMax = home.x.max, yMin = home.y.min, yMax = home.y.max;

  addRoofs(xMin, xMax);
  std::map<std::string, QScatterSeries*> byBound;
  for (const auto& p : placed) {
    auto& series = byBound[p.limiter];
    if (!series) {
      series = new QScatterSeries();
      series->setName(boundClassName(p.limiter));
      series->setColor(boundColour(p.limiter));
      series->setBorderColor(boundColour(p.limiter).darker(140));
      series->setMarkerSize(9);
      connect(series, &QScatterSeries::clicked, this, [this, series](const QPointF& value) {
        if (auto index = pointAt(series, value)) activatePoint(*index);
      });
    }
    series->append(p.x, p.y);
    drawn_[series].push_back(p.index);
    placed_.emplace_back(p.index, QPointF(p.x, p.y));
    // Area grows with time: diameter 6 to 30 px by the square root of the share of the longest.
    double size = 6 + 24 * std::sqrt(static_cast<double>(points_[p.index].durationNs) / static_cast<double>(longest));
    placedSizes_.push_back(size);
  }
  for (auto& [limiter, series] : byBound) chart_->addSeries(series);
  selectionSeries_ = new QScatterSeries();
  selectionSeries_->setName(tr("Selected kernel"));
  selectionSeries_->setMarkerSize(34);
  selectionSeries_->setColor(Qt::transparent);
  selectionSeries_->setBorderColor(Qt::black);
  selectionSeries_->setPen(QPen(Qt::black, 2));
  chart_->addSeries(selectionSeries_);
  chart_->legend()->markers(selectionSeries_).value(0)->setVisible(false);

  chartView_->installAxes(
      tr("Arithmetic intensity, %1 (FLOP/byte)").arg(QString::fromUtf8(memoryLevelName(level()).data())),
      tr("Performance (FLOP/s)"), xMin, xMax, yMin, yMax);
  // Time as area: a translucent disc around each marker, placed by placeDiscs (Qt 6.4 draws no scatter point
  // that has a PointConfiguration::Size, so the discs are items of their own).
  QStringList names;
  for (const auto& [index, position] : placed_) names << QString::fromStdString(points_[index].label);
  QFontMetricsF metrics(QGraphicsSimpleTextItem().font());
  names = middleElidedNames(names, metrics, metrics.averageCharWidth() * kLabelCharacters);
  for (size_t i = 0; i < placed_.size(); ++i) {
    QColor colour = boundColour(placed[i].limiter);
    auto* disc = new QGraphicsEllipseItem(chart_);
    QColor fill = colour;
    fill.setAlpha(90);
    disc->setBrush(fill);
    disc->setPen(QPen(colour.darker(130), 1));
    disc->setZValue(4);
    discs_.push_back(disc);
    auto* label = new QGraphicsSimpleTextItem(names[static_cast<qsizetype>(i)], chart_);
    label->setBrush(colour.darker(160));
    label->setZValue(6);
    labels_.push_back(label);
  }
  if (zoomed.isValid()) {
    chartView_->xAxis()->setRange(zoomed.left(), zoomed.right());
    chartView_->yAxis()->setRange(zoomed.top(), zoomed.bottom());
  }
  chart_->setTitle(
      tr("Roofline: %1%2")
          .arg(QString::fromStdString(roofs_.deviceName.empty() ? "unknown GPU" : roofs_.deviceName))
          .arg(roofs_.architecture.empty() ? QString() : " — " + QString::fromStdString(roofs_.architecture)));
  QStringList notes;
  if (points_.empty() && grouping() == RooflineGrouping::Nvtx)
    notes << tr("No kernel with metrics was launched inside an NVTX range.");
  if (undrawn)
    notes << tr("%n point(s) with no FLOPs or no %1 bytes cannot sit on log axes and are not drawn.", "", int(undrawn))
                 .arg(QString::fromUtf8(memoryLevelName(level()).data()));
  QStringList unknownBandwidth, unknownPeaks;
  for (auto memory : shownLevels())
    if (roofs_.bandwidthOf(memory) <= 0) unknownBandwidth << QString::fromUtf8(memoryLevelName(memory).data());
  if (!unknownBandwidth.isEmpty())
    notes << tr("The %1 bandwidth of this GPU is not known, so there is no %1 roof.")
                 .arg(unknownBandwidth.join(tr(" and ")));
  if (roofs_.architecture.empty()) {
    notes << tr("The compute peaks of this GPU's architecture are not known.");
  } else {
    for (auto precision : shownPrecisions())
      if (roofs_.peak(precision) <= 0) unknownPeaks << QString::fromUtf8(precisionName(precision).data());
    if (!unknownPeaks.isEmpty()) notes << tr("No %1 peak is known for this GPU.").arg(unknownPeaks.join(tr(", ")));
  }
  if (!roofs_.unknownBecause.empty())
    notes << tr("Roofs are missing because %1.").arg(QString::fromStdString(roofs_.unknownBecause));
  notes << tr(
      "Point area: time; colour: the roof that bounds the point. Drag to zoom, wheel to zoom around the "
      "cursor, R to reset.");
  message_->setText(notes.join(' '));
  resetZoom_->setEnabled(chartView_->isZoomed());
  placeDiscs();
  updateSelection();
}

}  // namespace gpuscope::ui
