#include "ui/launch/compare_launch.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>

#include "ui/analysis/compare_verdicts_view.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/compare_window.h"
#include "ui/launch/window_screenshot.h"
#include "ui/main_window/command_line_failure.h"

namespace gpuscope::ui {
namespace {

// Pins the N-th NVTX range (or, failing that, kernel) named NAME in A to the N-th in B; the error sentence.
std::optional<QString> alignRuns(CompareView& view, const QString& spec) {
  StartupView parsed;
  if (auto error = parseStartupView({}, spec, parsed))
    return QString(*error).replace(QStringLiteral("--select"), QStringLiteral("--align"));
  const std::string name = parsed.selectName.toStdString();
  const auto index = static_cast<size_t>(parsed.selectOccurrence - 1);
  for (auto kind : {AlignmentAnchor::Kind::NvtxRange, AlignmentAnchor::Kind::Kernel}) {
    const AlignmentAnchor anchor{kind, name, index};
    if (view.setAlignment(anchor, anchor)) return std::nullopt;
  }
  return QStringLiteral("--align: both runs need an NVTX range or kernel named '%1' #%2.")
      .arg(parsed.selectName)
      .arg(parsed.selectOccurrence);
}

// Once both runs are in: the alignment, the startup view and the tab the command line asked for; with
// --screenshot, the shot once both runs' verdicts are in. The exit status, or none to stay open.
std::optional<int> showLoaded(CompareWindow& window, const ViewerRequest& request) {
  CompareView& view = *window.view();
  if (!request.align.isEmpty()) {
    if (auto error = alignRuns(view, request.align)) return reportFailure(*error);
  }
  QCoreApplication::processEvents();
  // --view and --select act on A; B follows through the alignment.
  if (auto error = applyStartupView(request.startup, *view.sessionA())) return reportFailure(*error);
  if (auto error = showTab(view.tabs(), request.tab)) return reportFailure(*error);
  QCoreApplication::processEvents();
  const QString screenshot = request.screenshot.value_or(QString());
  if (screenshot.isEmpty()) return std::nullopt;
  // Both runs' verdicts are computed in the background: the shot waits until they are in.
  auto* verdicts = view.findChild<CompareVerdictsView*>();
  if (verdicts && !verdicts->isComplete()) {
    QEventLoop untilAnalyzed;
    QObject::connect(verdicts, &CompareVerdictsView::completed, &untilAnalyzed, &QEventLoop::quit);
    untilAnalyzed.exec();
  }
  return saveScreenshot(window, screenshot);
}

}  // namespace

int runCompare(const ViewerRequest& request) {
  const QString& pathA = request.files.at(0);
  const QString& pathB = request.files.at(1);
  const bool shot = !request.screenshot.value_or(QString()).isEmpty();
  // Both runs load in the background, with progress and Cancel, as the main window loads one.
  CompareWindow window;
  window.setWindowTitle(QStringLiteral("gpuscope — compare %1 (A) and %2 (B)")
                            .arg(QFileInfo(pathA).fileName(), QFileInfo(pathB).fileName()));
  window.resize(request.size.value_or(shot ? kScreenshotSize : fittedWindowSize(kDefaultWindowSize)));
  if (shot) window.setAttribute(Qt::WA_DontShowOnScreen);
  // A run that cannot be loaded: the screenshot fails; a window gives way to the main window on its welcome page,
  // which says why in its error dialog.
  QObject::connect(&window, &CompareWindow::failed, &window, [&window, &request, shot](const QString& message) {
    if (shot) {
      QCoreApplication::exit(reportFailure(message));
      return;
    }
    showCommandLineFailure(message, request.size.value_or(fittedWindowSize(kDefaultWindowSize)), !request.size);
    window.close();
  });
  QObject::connect(&window, &CompareWindow::cancelled, &window, [] { QCoreApplication::exit(1); });
  // REQUEST outlives the event loop that runs this.
  QObject::connect(&window, &CompareWindow::loaded, &window, [&window, &request] {
    if (auto status = showLoaded(window, request)) QCoreApplication::exit(*status);
  });
  window.show();
  window.load(pathA, pathB);
  return QApplication::exec();
}

}  // namespace gpuscope::ui
