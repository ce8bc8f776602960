#include "ui/analysis/compare_verdicts_view.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QTextBrowser>

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
  auto* note = new QLabel(tr("Each verdict judges its run's steady state (the window its analysis judged, as in its "
                             "Analysis tab); the numbers and tables above compare the aligned window."),
                          this);
  note->setObjectName(QStringLiteral("verdictsNote"));
  note->setWordWrap(true);
  note->setStyleSheet(QStringLiteral("color: #607080"));
  layout->addWidget(note, 1, 0, 1, 2);
}

QTextBrowser* CompareVerdictsView::addRun(const QString& title, const QString& path, int column) {
  auto* label = new QTextBrowser(this);
  label->setObjectName(QStringLiteral("verdict%1").arg(title));
  label->setHtml(tr("%1 (%2): analyzing...").arg(title, QFileInfo(path).fileName().toHtmlEscaped()));
  label->setOpenLinks(false);
  // A fixed box of five lines that scrolls when the verdict is longer: the sentence arrives later, and a box
  // that grew with it would move the compare view's splitters under the user.
  label->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  label->setFixedHeight(5 * label->fontMetrics().lineSpacing() + 2 * label->frameWidth() + 8);
  static_cast<QGridLayout*>(layout())->addWidget(label, 0, column);
  auto* analysis = new BackgroundAnalysis(this);
  QString prefix = QStringLiteral("<b>%1</b> (%2): ").arg(title, QFileInfo(path).fileName().toHtmlEscaped());
  connect(analysis, &BackgroundAnalysis::finished, this,
          [this, label, prefix](const QString&, std::shared_ptr<const AnalysisReport> report) {
            label->setHtml(prefix + verdictHtml(report->run));
            label->setToolTip(QString::fromStdString(verdictSentence(report->run)));
            if (--pending_ == 0) emit completed();
          });
  connect(analysis, &BackgroundAnalysis::failed, this, [this, label, prefix](const QString&, const QString& message) {
    label->setHtml(prefix + tr("no verdict: %1").arg(message.toHtmlEscaped()));
    if (--pending_ == 0) emit completed();
  });
  analysis->analyze(path);
  return label;
}

}  // namespace gpuscope::ui
