#include "ui/main_window/command_line_failure.h"

#include <QObject>
#include <QTimer>

#include "ui/main_window/main_window.h"

namespace gpuscope::ui {

MainWindow* showCommandLineFailure(const QString& message, QSize size, bool restoreGeometry,
                                   std::unique_ptr<QSettings> settings) {
  auto* window = new MainWindow(std::move(settings), MainWindow::Mode::Interactive);
  window->setAttribute(Qt::WA_DeleteOnClose);
  if (!restoreGeometry || !window->restoreWindowGeometry()) window->resize(size);
  window->show();
  // After the window is up, so the dialog has the welcome page behind it and a parent to centre on.
  QTimer::singleShot(0, window, [window, message] { window->reportError(QObject::tr("Cannot Open Trace"), message); });
  return window;
}

}  // namespace gpuscope::ui
