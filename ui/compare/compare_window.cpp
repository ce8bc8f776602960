#include "ui/compare/compare_window.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QVBoxLayout>
#include <new>

#include "core/error.h"
#include "ui/compare/compare_view.h"
#include "ui/loading/background_trace_loader.h"
#include "ui/loading/load_progress_widget.h"
#include "ui/main_window/keyboard_shortcuts.h"

namespace gpuscope::ui {

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent),
      loaderA_(new BackgroundTraceLoader(this)),
      loaderB_(new BackgroundTraceLoader(this)),
      layout_(new QVBoxLayout(this)),
      loadingPage_(new QWidget(this)),
      loadingTitle_(new QLabel(loadingPage_)),
      progressA_(new LoadProgressWidget(loaderA_, loadingPage_)),
      progressB_(new LoadProgressWidget(loaderB_, loadingPage_)) {
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setMenuBar(buildMenuBar());
  auto* page = new QVBoxLayout(loadingPage_);
  page->addStretch(1);
  page->addWidget(loadingTitle_, 0, Qt::AlignHCenter);
  page->addWidget(progressA_, 0, Qt::AlignHCenter);
  page->addWidget(progressB_, 0, Qt::AlignHCenter);
  page->addStretch(2);
  layout_->addWidget(loadingPage_);

  connect(loaderA_, &BackgroundTraceLoader::loaded, this,
          [this](const QString&, std::shared_ptr<const Trace> trace, qint64) { onLoaded(true, std::move(trace)); });
  connect(loaderB_, &BackgroundTraceLoader::loaded, this,
          [this](const QString&, std::shared_ptr<const Trace> trace, qint64) { onLoaded(false, std::move(trace)); });
  for (BackgroundTraceLoader* loader : {loaderA_, loaderB_}) {
    connect(loader, &BackgroundTraceLoader::failed, this,
            [this](const QString&, const QString& message) { onFailed(message); });
    connect(loader, &BackgroundTraceLoader::cancelled, this, &CompareWindow::onCancelled);
  }
}

CompareWindow::~CompareWindow() {
  stopping_ = true;  // the loaders' own destructors cancel and wait; nothing is reported any more
  loaderA_->cancel();
  loaderB_->cancel();
}

QMenuBar* CompareWindow::buildMenuBar() {
  // As the main window's: File to close it, Help for the keys (F1).
  auto* bar = new QMenuBar(this);
  QMenu* file = bar->addMenu(tr("&File"));
  QAction* close = file->addAction(tr("&Close Window"), this, &QWidget::close);
  close->setShortcut(QKeySequence::Close);
  close->setObjectName(QStringLiteral("closeCompare"));
  QMenu* help = bar->addMenu(tr("&Help"));
  QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showKeyboardShortcuts(this); });
  keys->setShortcut(QKeySequence(Qt::Key_F1));
  keys->setObjectName(QStringLiteral("compareShortcuts"));
  return bar;
}

bool CompareWindow::isLoading() const { return loaderA_->isLoading() || loaderB_->isLoading(); }

void CompareWindow::load(const QString& pathA, const QString& pathB) {
  a_.reset();
  b_.reset();
  loadingTitle_->setText(
      tr("Loading %1 (A) and %2 (B) to compare them")
          .arg(QFileInfo(pathA).fileName().toHtmlEscaped(), QFileInfo(pathB).fileName().toHtmlEscaped()));
  loaderA_->load(pathA);
  loaderB_->load(pathB);
}

void CompareWindow::cancel() {
  if (!isLoading()) return;
  stopAll();
  emit cancelled();
}

void CompareWindow::stopAll() {
  stopping_ = true;  // the loaders' own cancelled() signals are ours, not the user's
  loaderA_->cancel();
  loaderB_->cancel();
  stopping_ = false;
  a_.reset();
  b_.reset();
}

void CompareWindow::onLoaded(bool isA, std::shared_ptr<const Trace> trace) {
  (isA ? a_ : b_) = std::move(trace);
  if (a_ && b_) showComparison();
}

void CompareWindow::onFailed(const QString& message) {
  if (stopping_) return;
  stopAll();
  emit failed(message);
}

void CompareWindow::onCancelled() {
  if (stopping_) return;
  stopAll();  // the Cancel of one run's strip stops the whole comparison
  emit cancelled();
}

void CompareWindow::showComparison() {
  try {
    view_ = new CompareView(std::move(a_), std::move(b_), this);
  } catch (const TraceError& error) {
    emit failed(QString::fromUtf8(error.what()).simplified());
    return;
  } catch (const std::bad_alloc&) {
    emit failed(tr("There is not enough memory to hold both traces."));
    return;
  }
  a_.reset();
  b_.reset();
  loadingPage_->hide();
  layout_->addWidget(view_);
  emit loaded();
}

namespace {

constexpr QSize kCompareWindowSize(1400, 900);

// A new window at 1400x900, or 90 % of the screen's free area where that is smaller, centred on it: the
// screen of PARENT when there is one. (It opened 1400x900 with its bottom off a 1080-pixel screen.)
void placeOnScreen(QWidget* window, QWidget* parent) {
  QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
  if (!screen) {
    window->resize(kCompareWindowSize);
    return;
  }
  QRect free = screen->availableGeometry();
  QSize size = kCompareWindowSize.boundedTo(free.size() * 0.9);
  window->resize(size);
  window->move(free.center() - QPoint(size.width() / 2, size.height() / 2));
}

}  // namespace

CompareWindow* openCompare(const QString& pathA, const QString& pathB, QWidget* parent) {
  auto* window = new CompareWindow(parent);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setWindowTitle(QObject::tr("Compare %1 (A) and %2 (B) — gpuscope")
                             .arg(QFileInfo(pathA).fileName(), QFileInfo(pathB).fileName()));
  placeOnScreen(window, parent);
  QObject::connect(window, &CompareWindow::cancelled, window, &QWidget::close);
  window->show();
  window->load(pathA, pathB);
  return window;
}

}  // namespace gpuscope::ui
