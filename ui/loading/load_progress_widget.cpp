#include "ui/loading/load_progress_widget.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <cmath>

#include "ui/loading/background_trace_loader.h"

namespace gpuscope::ui {

namespace {
constexpr int kSteps = 1000;
}

LoadProgressWidget::LoadProgressWidget(BackgroundTraceLoader* loader, QWidget* parent)
    : QWidget(parent), label_(new QLabel(this)), bar_(new QProgressBar(this)), cancel_(new QToolButton(this)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);

  bar_->setRange(0, kSteps);
  bar_->setFixedWidth(180);
  bar_->setMaximumHeight(16);
  bar_->setTextVisible(true);
  bar_->setFormat(QStringLiteral("%p%"));

  cancel_->setText(tr("Cancel"));
  cancel_->setToolTip(tr("Stop loading this file"));
  cancel_->setAutoRaise(true);

  layout->addWidget(label_);
  layout->addWidget(bar_);
  layout->addWidget(cancel_);
  setVisible(loader->isLoading());

  connect(cancel_, &QToolButton::clicked, loader, &BackgroundTraceLoader::cancel);
  connect(loader, &BackgroundTraceLoader::started, this, &LoadProgressWidget::onStarted);
  connect(loader, &BackgroundTraceLoader::progressChanged, this, &LoadProgressWidget::onProgress);
  connect(loader, &BackgroundTraceLoader::loaded, this, &LoadProgressWidget::onStopped);
  connect(loader, &BackgroundTraceLoader::failed, this, &LoadProgressWidget::onStopped);
  connect(loader, &BackgroundTraceLoader::cancelled, this, &LoadProgressWidget::onStopped);
}

void LoadProgressWidget::onStarted(const QString& path) {
  label_->setText(tr("Loading %1").arg(QFileInfo(path).fileName()));
  label_->setToolTip(path);
  bar_->setValue(0);
  show();
}

void LoadProgressWidget::onProgress(double fraction) {
  bar_->setValue(static_cast<int>(std::lround(fraction * kSteps)));
}

void LoadProgressWidget::onStopped() { hide(); }

}  // namespace gpuscope::ui
