#include "ui/analysis/compare_verdicts_view.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>

#include "ui/analysis/analysis_panel.h"
#include "ui/analysis/background_analysis.h"

namespace gpuscope::ui {

CompareVerdictsView::CompareVerdictsView(const QString& pathA, const QString& pathB, QWidget* parent)
    : QWidget(parent) {
  setObjectName(QStringLiteral("compareVerdicts"));
  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setColumnStretch(0, 1);
  layout->setColumnStretch(1, 1);
  labelA_ = addRun(tr("A"), pathA, 0);
  labelB_ = addRun(tr("B"), pathB, 1);
}

QLabel* CompareVerdictsView::addRun(const QString& title, const QString& path, int column) {
  auto* label = new QLabel(tr("%1 (%2): analyzing...").arg(title, QFileInfo(path).fileName()), this);
  label->setObjectName(QStringLiteral("verdict%1").arg(title));
  label->setTextFormat(Qt::RichText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setFrameShape(QFrame::StyledPanel);
  label->setMargin(6);
  label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  // A fixed three-line box: the sentence arrives later, and a label that grew with it would move the
  // compare view's splitters under the user.
  label->setWordWrap(true);
  label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  label->setFixedHeight(3 * label->fontMetrics().lineSpacing() + 2 * label->margin() + 4);
  static_cast<QGridLayout*>(layout())->addWidget(label, 0, column);
  auto* analysis = new BackgroundAnalysis(this);
  QString prefix = QStringLiteral("<b>%1</b> (%2): ").arg(title, QFileInfo(path).fileName().toHtmlEscaped());
  connect(analysis, &BackgroundAnalysis::finished, this,
          [this, label, prefix](const QString&, std::shared_ptr<const AnalysisReport> report) {
            label->setText(prefix + verdictHtml(report->run));
            label->setToolTip(QString::fromStdString(verdictSentence(report->run)));
            if (--pending_ == 0) emit completed();
          });
  connect(analysis, &BackgroundAnalysis::failed, this, [this, label, prefix](const QString&, const QString& message) {
    label->setText(prefix + tr("no verdict: %1").arg(message.toHtmlEscaped()));
    if (--pending_ == 0) emit completed();
  });
  analysis->analyze(path);
  return label;
}

}  // namespace gpuscope::ui
