// MainWindow's ways to a file: the Open and Compare dialogs, drag and drop, and the Sessions window.
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QUrl>

#include "ui/main_window/main_window.h"
#include "ui/main_window/trace_file_names.h"
#include "ui/main_window/welcome_view.h"
#include "ui/sessions/sessions_window.h"

namespace gpuscope::ui {
namespace {

const QString kLastDirectoryKey = QStringLiteral("lastOpenDirectory");

}  // namespace

void MainWindow::showOpenDialog() {
  QString directory = settings_->value(kLastDirectoryKey).toString();
  if (!currentFile_.isEmpty()) directory = QFileInfo(currentFile_).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), directory, traceFileFilter());
  if (path.isEmpty()) return;
  if (!batch_) settings_->setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::showCompareDialog() {
  if (currentFile_.isEmpty()) return;
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Compare With"), QFileInfo(currentFile_).absolutePath(), traceFileFilter());
  if (!path.isEmpty()) compareWith(path);
}

SessionsWindow* MainWindow::showSessionsWindow() {
  if (!sessionsWindow_) {
    sessionsWindow_ = new SessionsWindow(this);
    connect(sessionsWindow_, &SessionsWindow::openFileRequested, this, &MainWindow::openFile);
  }
  sessionsWindow_->show();
  sessionsWindow_->raise();
  sessionsWindow_->activateWindow();
  return sessionsWindow_;
}

QString MainWindow::droppedFile(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  const QList<QUrl> urls = mime->urls();
  if (urls.size() != 1 || !urls.front().isLocalFile()) return {};
  const QString path = urls.front().toLocalFile();
  return QFileInfo(path).isFile() ? path : QString();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (droppedFile(event->mimeData()).isEmpty()) {
    event->ignore();
    return;
  }
  event->setDropAction(Qt::CopyAction);
  event->accept();
  welcome_->setDropTargetActive(true);
}

void MainWindow::dragLeaveEvent(QDragLeaveEvent* event) {
  welcome_->setDropTargetActive(false);
  QMainWindow::dragLeaveEvent(event);
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
  if (droppedFile(event->mimeData()).isEmpty()) {
    event->ignore();
    return;
  }
  event->setDropAction(Qt::CopyAction);
  event->accept();
}

void MainWindow::dropEvent(QDropEvent* event) {
  welcome_->setDropTargetActive(false);
  const QString path = droppedFile(event->mimeData());
  if (path.isEmpty()) {
    event->ignore();
    return;
  }
  event->setDropAction(Qt::CopyAction);
  event->accept();
  openFile(path);
}

}  // namespace gpuscope::ui
