#include "ui/compare/compare_summary.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "ui/compare/run_diff_model.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

QString metricValue(const SummaryMetric& metric, double value) {
  if (metric.unit == "ns") return durationText(static_cast<TimeNs>(std::llround(value)));
  if (metric.unit == "bytes") return bytesText(static_cast<int64_t>(std::llround(value)));
  if (metric.unit == "%") return QString::number(value, 'f', metric.decimals) + QStringLiteral(" %");
  return QString::number(static_cast<qlonglong>(std::llround(value)));
}

QString metricDelta(const SummaryMetric& metric) {
  double delta = metric.delta();
  if (metric.unit == "ns") return signedDuration(delta);
  QString sign = delta > 0 ? QStringLiteral("+") : delta < 0 ? QStringLiteral("-") : QString();
  if (metric.unit == "bytes") return sign + bytesText(static_cast<int64_t>(std::llround(std::abs(delta))));
  if (metric.unit == "%") return sign + QString::number(std::abs(delta), 'f', metric.decimals) + QStringLiteral(" pt");
  return sign + QString::number(static_cast<qlonglong>(std::llround(std::abs(delta))));
}

}  // namespace

CompareSummary::CompareSummary(QWidget* parent) : QFrame(parent) {
  setFrameShape(QFrame::StyledPanel);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(2);
  windowLabel_ = new QLabel(this);
  windowLabel_->setObjectName(QStringLiteral("summaryWindow"));
  windowLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(windowLabel_);
  auto* grid = new QWidget(this);
  layout->addWidget(grid);
  grid_ = new QGridLayout(grid);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setHorizontalSpacing(14);
  grid_->setVerticalSpacing(1);
}

void CompareSummary::setContents(const QString& windowText, const std::vector<SummaryMetric>& metrics) {
  windowLabel_->setText(windowText);
  while (QLayoutItem* item = grid_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  auto* parent = grid_->parentWidget();
  size_t half = (metrics.size() + 1) / 2;
  for (int side = 0; side < 2; ++side) {
    int column = side * 6;
    const QStringList headers = {QString(), tr("A"), tr("B"), tr("Δ"), tr("Δ %")};
    for (int h = 0; h < headers.size(); ++h) {
      auto* header = new QLabel(QStringLiteral("<b>%1</b>").arg(headers[h]), parent);
      grid_->addWidget(header, 0, column + h, h == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
  }
  for (size_t i = 0; i < metrics.size(); ++i) {
    const SummaryMetric& metric = metrics[i];
    int row = static_cast<int>(i % half) + 1;
    int column = static_cast<int>(i / half) * 6;
    auto percent = metric.deltaPercent();
    QStringList cells = {QString::fromStdString(metric.name), metricValue(metric, metric.a),
                         metricValue(metric, metric.b), metricDelta(metric),
                         percent ? QString::number(*percent, 'f', 1) + QStringLiteral(" %") : QString()};
    for (int c = 0; c < cells.size(); ++c) {
      auto* label = new QLabel(cells[c], parent);
      label->setObjectName(QStringLiteral("summary_%1_%2").arg(i).arg(c));
      grid_->addWidget(label, row, column + c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
  }
  grid_->setColumnStretch(5, 1);
  grid_->setColumnStretch(11, 1);
}

}  // namespace gpuscope::ui
