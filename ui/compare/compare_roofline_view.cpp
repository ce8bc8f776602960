#include "ui/compare/compare_roofline_view.h"

#include <QChart>
#include <QComboBox>
#include <QCursor>
#include <QFileInfo>
#include <QGraphicsPolygonItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineF>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPen>
#include <QPushButton>
#include <QScatterSeries>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/details/kernel_roofline.h"
#include "core/roofline/roofline_chart.h"
#include "core/roofline/roofline_range.h"
#include "ui/compare/run_gpus.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_palette.h"

namespace gpuscope::ui {
namespace {

const QColor kColourA(0x15, 0x65, 0xc0);  // blue circles
const QColor kColourB(0xef, 0x6c, 0x00);  // orange triangles
constexpr double kMarkerA = 11;
constexpr double kMarkerB = 13;
constexpr double kHeadLength = 11;
constexpr double kHeadHalfWidth = 5;

QString fileName(const Trace& trace) { return QFileInfo(QString::fromStdString(trace.path())).fileName(); }

QString text(const std::string& value) { return QString::fromStdString(value); }

// " (measured)" after a roof that was measured on the GPU; theoretical roofs say nothing.
QString measuredTag(RoofSource source) {
  return source == RoofSource::Measured ? QStringLiteral(" (measured)") : QString();
}

// Kernels by name with metrics, and the roofs of the run's GPU (that of its first kernel with metrics, else
// its first GPU); PROBLEMS gets a sentence on failure.
std::vector<RooflinePoint> loadPoints(const Trace& trace, DeviceRoofs& roofs, const QString& letter,
                                      QStringList& problems) {
  RooflineChart chart = loadRooflineChart(trace);
  if (!chart.metricsError.empty())
    problems << QObject::tr("%1's metrics cannot be read: %2").arg(letter, QString::fromStdString(chart.metricsError));
  for (const auto& warning : chart.warnings) problems << letter + ": " + QString::fromStdString(warning);
  roofs = chartRoofs(trace, chart);
  return chart.points(RooflineGrouping::Name);
}

QString gpuName(const DeviceRoofs& roofs) {
  return roofs.deviceName.empty() ? QObject::tr("unknown GPU") : text(roofs.deviceName);
}

bool sameGpu(const DeviceRoofs& a, const DeviceRoofs& b) { return a.deviceName == b.deviceName; }

QString describe(const RooflinePoint& point, const QString& run, MemoryLevel level) {
  auto at = rooflineCoordinates(point, level);
  QString line = "<b>" + run.toHtmlEscaped() + "</b><br>" + text(point.label).toHtmlEscaped();
  if (at)
    line += "<br>" + text(engineeringText(at->flopsPerSecond, "FLOP/s", 4)) + ", " + text(intensityText(at->intensity));
  return line;
}

}  // namespace

QColor CompareRooflineView::arrowColour() { return QColor(0x6a, 0x1b, 0x9a); }

CompareRooflineView::CompareRooflineView(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b,
                                         QWidget* parent)
    : QWidget(parent),
      a_(std::move(a)),
      b_(std::move(b)),
      levelBox_(new QComboBox(this)),
      resetZoom_(new QPushButton(tr("Reset zoom"), this)),
      chart_(new QChart()),
      chartView_(new RooflineChartView(chart_, this)),
      message_(new QLabel(this)) {
  for (auto level : kMemoryLevels)
    levelBox_->addItem(QString::fromUtf8(memoryLevelName(level).data()), static_cast<int>(level));
  auto* controls = new QHBoxLayout();
  controls->addWidget(new QLabel(tr("Memory level:"), this));
  controls->addWidget(levelBox_);
  controls->addSpacing(16);
  controls->addWidget(new QLabel(tr("Compute ceilings:"), this));
  for (auto precision : kPrecisions) {
    QString name = QString::fromUtf8(precisionName(precision).data());
    auto* button = new QToolButton(this);
    button->setText(name);
    button->setToolTip(tr("Show or hide the %1 peak").arg(name));
    button->setCheckable(true);
    precisionToggles_[static_cast<size_t>(precision)] = button;
    controls->addWidget(button);
  }
  controls->addStretch(1);
  controls->addWidget(resetZoom_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(controls);
  gpuWarning_ = differentGpusLabel(*a_, *b_, this);
  layout->addWidget(gpuWarning_);
  layout->addWidget(chartView_, 1);
  layout->addWidget(message_);
  message_->setWordWrap(true);
  chart_->legend()->setAlignment(Qt::AlignRight);
  resetZoom_->setToolTip(tr("Show the whole chart again (R). Drag a rectangle or turn the wheel to zoom."));
  connect(resetZoom_, &QPushButton::clicked, chartView_, &RooflineChartView::resetZoom);
  connect(chartView_, &RooflineChartView::rangeChanged, this, [this] {
    resetZoom_->setEnabled(chartView_->isZoomed());
    placeArrowHeads();
  });
  connect(chart_, &QChart::plotAreaChanged, this, [this] { placeArrowHeads(); });
  // A mouse at rest keeps the tooltip of the point under it.
  chartView_->setPointToolTip([this](QPointF position) { return toolTipAt(position); });
  connect(levelBox_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });

  pointsA_ = loadPoints(*a_, roofsA_, tr("A"), loadProblems_);
  pointsB_ = loadPoints(*b_, roofsB_, tr("B"), loadProblems_);
  // FP64 and FP32 ceilings, Tensor where A's GPU has tensor cores, FP16 where a kernel counted FP16 FLOPs.
  bool fp16 = false;
  for (const auto* points : {&pointsA_, &pointsB_})
    for (const auto& point : *points) fp16 = fp16 || point.flopsOf(Precision::Fp16).value_or(0) > 0;
  for (auto precision : kPrecisions) {
    bool shown = precision == Precision::Fp64 || precision == Precision::Fp32 ||
                 (precision == Precision::Fp16 && fp16) ||
                 (precision == Precision::Tensor && roofsA_.peak(Precision::Tensor) > 0);
    precisionToggle(precision)->setChecked(shown);
    connect(precisionToggle(precision), &QToolButton::toggled, this, [this] { rebuild(); });
  }
  rebuild();
}

MemoryLevel CompareRooflineView::level() const { return static_cast<MemoryLevel>(levelBox_->currentData().toInt()); }

QString CompareRooflineView::message() const { return message_->text(); }

void CompareRooflineView::rebuild() {
  chart_->removeAllSeries();
  chartView_->clearAxes();
  qDeleteAll(arrowHeads_);
  arrowHeads_.clear();
  arrowLines_.clear();
  drawnA_.clear();
  drawnB_.clear();
  seriesA_ = seriesB_ = nullptr;
  pairs_.clear();
  resetZoom_->setEnabled(false);
  QStringList notes = loadProblems_;
  if (pointsA_.empty() || pointsB_.empty()) {
    QStringList without;
    if (pointsA_.empty()) without << tr("A");
    if (pointsB_.empty()) without << tr("B");
    notes << tr("%1 has no kernel metrics; attach an Nsight Compute report to each run with "
                "`gpuscope import-ncu TRACE REPORT.csv -o OUT.sqlite`.")
                 .arg(without.join(tr(" and ")));
  }
  MemoryLevel memory = level();
  pairs_ = pairRooflinePoints(pointsA_, pointsB_, memory);

  // Home range: every drawable point and the ridges of the roofs drawn, a decade of margin around them.
  std::vector<RooflineXY> drawable;
  auto include = [&](const RooflineCoordinates& at) { drawable.push_back({at.intensity, at.flopsPerSecond / 1e9}); };
  size_t undrawn = 0;
  seriesA_ = new QScatterSeries();
  seriesA_->setName(tr("A: %1").arg(fileName(*a_)));
  seriesA_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  seriesA_->setMarkerSize(kMarkerA);
  seriesA_->setColor(kColourA);
  seriesA_->setBorderColor(kColourA.darker(150));
  seriesB_ = new QScatterSeries();
  seriesB_->setName(tr("B: %1").arg(fileName(*b_)));
  seriesB_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
  seriesB_->setMarkerSize(kMarkerB);
  seriesB_->setColor(kColourB);
  seriesB_->setBorderColor(kColourB.darker(150));
  for (size_t i = 0; i < pointsA_.size(); ++i) {
    if (auto at = rooflineCoordinates(pointsA_[i], memory)) {
      seriesA_->append(at->intensity, at->flopsPerSecond / 1e9);
      drawnA_.push_back(i);
      include(*at);
    } else {
      ++undrawn;
    }
  }
  for (size_t i = 0; i < pointsB_.size(); ++i) {
    if (auto at = rooflineCoordinates(pointsB_[i], memory)) {
      seriesB_->append(at->intensity, at->flopsPerSecond / 1e9);
      drawnB_.push_back(i);
      include(*at);
    } else {
      ++undrawn;
    }
  }

  // Roofs: A's GPU; B's as well, dotted, when B ran on another GPU.
  std::vector<Precision> precisions;
  for (auto precision : kPrecisions)
    if (precisionToggle(precision)->isChecked()) precisions.push_back(precision);
  std::vector<std::pair<const DeviceRoofs*, QString>> roofSets = {{&roofsA_, QString()}};
  if (!roofsB_.deviceName.empty() && !sameGpu(roofsA_, roofsB_)) roofSets.push_back({&roofsB_, tr("B: ")});
  double highest = 0;
  std::vector<double> bandwidths;
  for (const auto& [roofs, prefix] : roofSets) {
    for (auto precision : precisions) highest = std::max(highest, roofs->peak(precision) / 1e9);
    bandwidths.push_back(roofs->bandwidthOf(memory) / 1e9);
  }
  RooflineRange home = rooflineHomeRange(drawable, highest, bandwidths);
  double xMin = home.x.min, xMax = home.x.max, yMin = home.y.min, yMax = home.y.max;
  for (const auto& [roofs, prefix] : roofSets) {
    double bandwidth = roofs->bandwidthOf(memory) / 1e9;
    double top = 0;
    for (auto precision : precisions) top = std::max(top, roofs->peak(precision) / 1e9);
    Qt::PenStyle style = prefix.isEmpty() ? Qt::SolidLine : Qt::DotLine;
    if (bandwidth > 0) {
      auto* line = new QLineSeries();
      line->setName(prefix + QString::fromUtf8(memoryLevelName(memory).data()) + " " +
                    text(bandwidthText(bandwidth * 1e9)) + measuredTag(roofs->sourceOf(memory)));
      double xEnd = top > 0 ? top / bandwidth : xMax;
      line->append(xMin, xMin * bandwidth);
      line->append(xEnd, xEnd * bandwidth);
      line->setPen(QPen(roofColour(memory), 2, style));
      chart_->addSeries(line);
    }
    for (auto precision : precisions) {
      double peak = roofs->peak(precision) / 1e9;
      if (peak <= 0) continue;
      auto* line = new QLineSeries();
      line->setName(prefix + QString::fromUtf8(precisionName(precision).data()) + " peak " +
                    text(flopRateText(peak * 1e9)) + measuredTag(roofs->sourceOf(precision)));
      line->append(bandwidth > 0 ? peak / bandwidth : xMin, peak);
      line->append(xMax, peak);
      line->setPen(QPen(roofColour(precision), 1.5, style));
      chart_->addSeries(line);
    }
  }
  // Arrows under the markers: a line from A's point to B's, and a head drawn on the chart by placeArrowHeads.
  for (const auto& pair : pairs_) {
    auto* line = new QLineSeries();
    line->setName(tr("A → B, same kernel"));
    line->setPen(QPen(arrowColour(), 2));
    line->append(pair.from.intensity, pair.from.flopsPerSecond / 1e9);
    line->append(pair.to.intensity, pair.to.flopsPerSecond / 1e9);
    chart_->addSeries(line);
    arrowLines_.push_back(line);
    auto* head = new QGraphicsPolygonItem(chart_);
    head->setBrush(arrowColour());
    head->setPen(Qt::NoPen);
    head->setZValue(100);
    arrowHeads_.push_back(head);
  }
  chart_->addSeries(seriesA_);
  chart_->addSeries(seriesB_);
  for (size_t i = 1; i < arrowLines_.size(); ++i) chart_->legend()->markers(arrowLines_[i]).value(0)->setVisible(false);
  for (auto* series : {seriesA_, seriesB_}) {
    bool isA = series == seriesA_;
    connect(series, &QScatterSeries::hovered, this, [this, isA](const QPointF& value, bool state) {
      if (!state) {
        QToolTip::hideText();
        return;
      }
      const auto& points = isA ? pointsA_ : pointsB_;
      const auto& drawn = isA ? drawnA_ : drawnB_;
      auto* scatter = isA ? seriesA_ : seriesB_;
      for (int i = 0; i < scatter->count() && i < static_cast<int>(drawn.size()); ++i)
        if (scatter->at(i) == value)
          QToolTip::showText(
              QCursor::pos(),
              describe(points[drawn[static_cast<size_t>(i)]], isA ? seriesA_->name() : seriesB_->name(), level()),
              chartView_);
    });
  }
  chartView_->installAxes(
      tr("Arithmetic intensity, %1 (FLOP/byte)").arg(QString::fromUtf8(memoryLevelName(memory).data())),
      tr("Performance (FLOP/s)"), xMin, xMax, yMin, yMax);
  chart_->setTitle(sameGpu(roofsA_, roofsB_)
                       ? tr("Roofline of A and B: %1").arg(gpuName(roofsA_))
                       : tr("Roofline of A (%1) and B (%2)").arg(gpuName(roofsA_), gpuName(roofsB_)));
  if (undrawn)
    notes << tr("%n kernel name(s) with no FLOPs or no %1 bytes cannot sit on log axes and are not drawn.", "",
                int(undrawn))
                 .arg(QString::fromUtf8(memoryLevelName(memory).data()));
  notes << tr("%n kernel name(s) measured in both runs: an arrow goes from A's point to B's.", "", int(pairs_.size()));
  message_->setText(notes.join(' '));
  placeArrowHeads();
}

QString CompareRooflineView::toolTipAt(QPointF viewportPosition) const {
  for (bool isA : {false, true}) {  // B's triangles are drawn over A's circles
    const auto* series = isA ? seriesA_ : seriesB_;
    const auto& drawn = isA ? drawnA_ : drawnB_;
    if (!series) continue;
    double reach = (isA ? kMarkerA : kMarkerB) / 2 + 2;
    for (int i = 0; i < series->count() && i < static_cast<int>(drawn.size()); ++i)
      if (QLineF(chartView_->viewportPosition(series->at(i)), viewportPosition).length() <= reach)
        return describe((isA ? pointsA_ : pointsB_)[drawn[static_cast<size_t>(i)]], series->name(), level());
  }
  return {};
}

void CompareRooflineView::placeArrowHeads() {
  QRectF plot = chart_->plotArea();
  for (size_t i = 0; i < arrowHeads_.size() && i < pairs_.size(); ++i) {
    auto* head = arrowHeads_[i];
    QPointF from = chartView_->chartPosition({pairs_[i].from.intensity, pairs_[i].from.flopsPerSecond / 1e9});
    QPointF to = chartView_->chartPosition({pairs_[i].to.intensity, pairs_[i].to.flopsPerSecond / 1e9});
    QPointF direction = to - from;
    double length = std::hypot(direction.x(), direction.y());
    // The tip stops at B's marker; an arrow too short for its head shows the line alone.
    double back = kMarkerB / 2 + 1;
    if (length < back + kHeadLength + 2 || !plot.contains(to)) {
      head->setVisible(false);
      continue;
    }
    QPointF unit = direction / length;
    QPointF normal(-unit.y(), unit.x());
    QPointF tip = to - unit * back;
    QPointF base = tip - unit * kHeadLength;
    head->setPolygon(QPolygonF({tip, base + normal * kHeadHalfWidth, base - normal * kHeadHalfWidth}));
    head->setVisible(true);
  }
}

}  // namespace gpuscope::ui
