#include "ui/launch/viewer_launch.h"

#include <QApplication>
#include <QScreen>
#include <cstdio>

#include "ui/launch/compare_launch.h"
#include "ui/launch/rank_launch.h"
#include "ui/launch/window_screenshot.h"
#include "ui/main_window/command_line_failure.h"
#include "ui/main_window/main_window.h"

namespace gpuscope::ui {
namespace {

// `gpuscope-ui [FILE]`: the main window at --size, or where it was last closed, or at a default size that
// fits the screen; FILE loads in the background and the startup view applies once it is in.
int runWindow(const ViewerRequest& request) {
  MainWindow window(nullptr, MainWindow::Mode::Interactive);
  if (request.size) {
    window.resize(*request.size);
  } else if (!window.restoreWindowGeometry()) {
    window.resize(fittedWindowSize(kDefaultWindowSize));
  }
  window.show();
  QObject::connect(&window, &MainWindow::traceLoaded, &window, [&window, startup = request.startup] {
    if (auto error = applyStartupView(startup, *window.session())) reportFailure(*error);
  });
  const QString file = request.files.value(0);
  if (!file.isEmpty()) window.openFileTitled(file, request.titleWhere);
  return QApplication::exec();
}

}  // namespace

QSize fittedWindowSize(QSize preferred) {
  const QScreen* screen = QGuiApplication::primaryScreen();
  return screen ? preferred.boundedTo(screen->availableGeometry().size() * 0.9) : preferred;
}

int reportFailure(const QString& message) {
  std::fprintf(stderr, "gpuscope-ui: %s\n", message.toLocal8Bit().constData());
  return 1;
}

int runViewer(const ViewerRequest& request) {
  if (request.ranks) {
    MergedRankFile merged;  // lives while the window shows it
    if (auto error = merged.merge(request.files, request.relative, request.alignCollectives)) {
      if (request.screenshot) return reportFailure(*error);
      showCommandLineFailure(*error, request.size.value_or(fittedWindowSize(kDefaultWindowSize)), !request.size);
      return QApplication::exec();
    }
    ViewerRequest one = request;
    one.ranks = false;
    one.files = {merged.path()};
    // Not the temporary folder, which means nothing to the user and goes when the window closes.
    one.titleWhere = QObject::tr("%1 ranks merged, temporary").arg(request.files.size());
    return runViewer(one);
  }
  if (request.files.size() == 2) return runCompare(request);
  if (request.screenshot) return runWindowScreenshot(request);
  return runWindow(request);
}

}  // namespace gpuscope::ui
