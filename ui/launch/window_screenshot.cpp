#include "ui/launch/window_screenshot.h"

#include <QApplication>
#include <QTabWidget>
#include <QTimer>
#include <memory>

#include "ui/loading/integrity_checker.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"

namespace gpuscope::ui {
namespace {

// The file's integrity check runs after the panes are filled (IntegrityChecker); the screenshot is saved
// at once, and the exit waits for the check, so that a damaged file still ends with its sentence and 1.
struct IntegrityWait {
  bool checked = false;
  bool damaged = false;
  std::optional<int> exitCode;  // set once the screenshot is saved
};

}  // namespace

int saveScreenshot(QWidget& widget, const QString& output) {
  QCoreApplication::processEvents();
  if (!widget.grab().save(output, "PNG"))
    return reportFailure(QStringLiteral("could not write the screenshot to %1.").arg(output));
  return 0;
}

std::optional<QString> showTab(QTabWidget* tabs, const QString& name) {
  if (name.isEmpty()) return std::nullopt;
  QStringList names;
  for (int i = 0; i < tabs->count(); ++i) {
    const QString text = tabs->tabText(i).remove(QLatin1Char('&'));
    if (text.compare(name, Qt::CaseInsensitive) == 0) {
      tabs->setCurrentIndex(i);
      return std::nullopt;
    }
    names << text.toLower();
  }
  return QStringLiteral("--tab wants one of %1, not '%2'.").arg(names.join(QStringLiteral(", ")), name);
}

namespace {

// The main window's tab named NAME, or the table of the timeline tab so named ("stats reports", "kernels"),
// brought to the front; the error sentence (listing the main tabs and the tables) when there is none.
std::optional<QString> showWindowTab(MainWindow& window, const QString& name) {
  std::optional<QString> error = showTab(window.views(), name);
  if (!error) return std::nullopt;
  if (!showTab(window.analysisView()->tables(), name)) {
    window.views()->setCurrentWidget(window.analysisView());
    return std::nullopt;
  }
  QStringList tables;
  for (int i = 0; i < window.analysisView()->tables()->count(); ++i)
    tables << window.analysisView()->tables()->tabText(i).remove(QLatin1Char('&')).toLower();
  return QStringLiteral("%1 The timeline's tables are %2.").arg(*error, tables.join(QStringLiteral(", ")));
}

}  // namespace

int runWindowScreenshot(const ViewerRequest& request) {
  const QString file = request.files.value(0);
  const QString output = request.screenshot.value_or(QString());
  const QString& tab = request.tab;
  MainWindow window(nullptr, MainWindow::Mode::Batch);
  window.setAttribute(Qt::WA_DontShowOnScreen);
  window.resize(request.size.value_or(kScreenshotSize));
  window.show();

  auto integrity = std::make_shared<IntegrityWait>();
  QObject::connect(window.integrity(), &IntegrityChecker::checked, &window,
                   [integrity](const QString&, const QString& problem) {
                     integrity->checked = true;
                     integrity->damaged = !problem.isEmpty();  // the window has printed the sentence
                     if (integrity->exitCode) QCoreApplication::exit(integrity->damaged ? 1 : *integrity->exitCode);
                   });
  auto shoot = [&window, output, tab, integrity, hasFile = !file.isEmpty()] {
    if (auto error = showWindowTab(window, tab)) {
      QCoreApplication::exit(reportFailure(*error));
      return;
    }
    int code = saveScreenshot(window, output);
    if (code != 0 || !hasFile || integrity->checked) {
      QCoreApplication::exit(code != 0 ? code : integrity->damaged ? 1 : 0);
      return;
    }
    integrity->exitCode = code;
  };
  auto save = [&window, startup = request.startup, shoot] {
    if (auto error = applyStartupView(startup, *window.session())) {
      QCoreApplication::exit(reportFailure(*error));
      return;
    }
    // A --range on a large trace restricts the kernel table on a worker: shoot once its rows are in.
    KernelTableModel* kernels = window.analysisView()->kernels()->instanceModel();
    if (kernels->isUpdating())
      QObject::connect(kernels, &KernelTableModel::rowsReady, &window, shoot, Qt::SingleShotConnection);
    else
      shoot();
  };
  if (request.analyze || tab.compare(QStringLiteral("analysis"), Qt::CaseInsensitive) == 0) {
    QObject::connect(&window, &MainWindow::traceLoaded, &window, [&window] { window.analyzeCurrentTrace(); });
    QObject::connect(&window, &MainWindow::analysisFinished, &window, [save] { QTimer::singleShot(0, save); });
  } else {
    QObject::connect(&window, &MainWindow::panesFilled, &window, [save] { QTimer::singleShot(0, save); });
  }
  // On a failed load the window has printed the one sentence.
  QObject::connect(&window, &MainWindow::loadFailed, &window, [] { QCoreApplication::exit(1); });
  QObject::connect(&window, &MainWindow::loadCancelled, &window, [] { QCoreApplication::exit(1); });
  if (file.isEmpty()) {
    QTimer::singleShot(0, save);  // the empty state
  } else {
    window.openFileTitled(file, request.titleWhere);
  }
  return QApplication::exec();
}

}  // namespace gpuscope::ui
