// gpuscope-ui: the viewer. Opens FILE when given, compares A and B when given two; --screenshot renders
// the window to a PNG and exits; --bench FILE measures timeline frame times.
#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QFileInfo>
#include <QPixmap>
#include <QRegularExpression>
#include <QScreen>
#include <QSize>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "ui/analysis/compare_verdicts_view.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/compare_window.h"
#include "ui/loading/integrity_checker.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/application_icon.h"
#include "ui/main_window/main_window.h"
#include "ui/main_window/startup_view.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/timeline/timeline_bench.h"

namespace {

constexpr QSize kScreenshotSize(1600, 1000);
constexpr QSize kDefaultWindowSize(1400, 900);

// Looked for before QApplication exists, because the platform plugin is chosen when it starts.
bool hasFlag(int argc, char** argv, const char* flag) {
  const size_t length = std::strlen(flag);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) break;
    if (std::strcmp(argv[i], flag) == 0 || (std::strncmp(argv[i], flag, length) == 0 && argv[i][length] == '='))
      return true;
  }
  return false;
}

std::optional<QSize> parseSize(const QString& text) {
  static const QRegularExpression pattern(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
  const QRegularExpressionMatch match = pattern.match(text.trimmed());
  if (!match.hasMatch()) return std::nullopt;
  const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
  if (size.width() < 200 || size.height() < 150 || size.width() > 16384 || size.height() > 16384) return std::nullopt;
  return size;
}

// In --screenshot mode stderr carries only our own one-line errors: the platform's chatter
// (warnings about size hints, runtime directories) is dropped; critical messages still pass.
QtMessageHandler defaultMessageHandler = nullptr;
void passOn(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (defaultMessageHandler) return defaultMessageHandler(type, context, message);
  std::fprintf(stderr, "%s\n", qFormatLogMessage(type, context, message).toLocal8Bit().constData());
}

void quietMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg) passOn(type, context, message);
}

// Qt's note that it made up a runtime directory says nothing the user can act on, and would turn an
// error's one sentence into two lines; everything else passes.
void plainMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) return;
  passOn(type, context, message);
}

int fail(const QString& message) {
  std::fprintf(stderr, "gpuscope-ui: %s\n", message.toLocal8Bit().constData());
  return 1;
}

// Renders WIDGET, once it has laid out, to the PNG OUTPUT; the exit code.
int saveScreenshot(QWidget& widget, const QString& output) {
  QCoreApplication::processEvents();
  if (!widget.grab().save(output, "PNG"))
    return fail(QStringLiteral("could not write the screenshot to %1.").arg(output));
  return 0;
}

// Brings the window's tab named NAME (any case) to the front; the error sentence when there is none.
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

// Pins the N-th NVTX range (or, failing that, kernel) named NAME in A to the N-th in B; the error sentence.
std::optional<QString> alignRuns(gpuscope::ui::CompareView& view, const QString& spec) {
  gpuscope::ui::StartupView parsed;
  if (auto error = gpuscope::ui::parseStartupView({}, spec, parsed))
    return QString(*error).replace(QStringLiteral("--select"), QStringLiteral("--align"));
  const std::string name = parsed.selectName.toStdString();
  const auto index = static_cast<size_t>(parsed.selectOccurrence - 1);
  for (auto kind : {gpuscope::AlignmentAnchor::Kind::NvtxRange, gpuscope::AlignmentAnchor::Kind::Kernel}) {
    const gpuscope::AlignmentAnchor anchor{kind, name, index};
    if (view.setAlignment(anchor, anchor)) return std::nullopt;
  }
  return QStringLiteral("--align: both runs need an NVTX range or kernel named '%1' #%2.")
      .arg(parsed.selectName)
      .arg(parsed.selectOccurrence);
}

// `gpuscope-ui A B`: the compare window of two runs. With SCREENSHOT, renders it once both are loaded and exits.
int runCompare(QApplication& app, const QString& pathA, const QString& pathB, const QString& screenshot,
               std::optional<QSize> size, const gpuscope::ui::StartupView& startup, const QString& align,
               const QString& tab) {
  // Both runs load in the background, with progress and Cancel, as the main window loads one.
  gpuscope::ui::CompareWindow window;
  window.setWindowTitle(QStringLiteral("gpuscope — compare %1 (A) and %2 (B)")
                            .arg(QFileInfo(pathA).fileName(), QFileInfo(pathB).fileName()));
  window.resize(size.value_or(screenshot.isEmpty() ? kDefaultWindowSize : kScreenshotSize));
  if (!screenshot.isEmpty()) window.setAttribute(Qt::WA_DontShowOnScreen);
  QObject::connect(&window, &gpuscope::ui::CompareWindow::failed, &window,
                   [](const QString& message) { QCoreApplication::exit(fail(message)); });
  QObject::connect(&window, &gpuscope::ui::CompareWindow::cancelled, &window, [] { QCoreApplication::exit(1); });
  QObject::connect(&window, &gpuscope::ui::CompareWindow::loaded, &window, [&window, screenshot, startup, align, tab] {
    gpuscope::ui::CompareView& view = *window.view();
    if (!align.isEmpty()) {
      if (auto error = alignRuns(view, align)) return QCoreApplication::exit(fail(*error));
    }
    QCoreApplication::processEvents();
    // --view and --select act on A; B follows through the alignment.
    if (auto error = gpuscope::ui::applyStartupView(startup, *view.sessionA()))
      return QCoreApplication::exit(fail(*error));
    if (auto error = showTab(view.tabs(), tab)) return QCoreApplication::exit(fail(*error));
    QCoreApplication::processEvents();
    if (screenshot.isEmpty()) return;
    // Both runs' verdicts are computed in the background: the shot waits until they are in.
    auto* verdicts = view.findChild<gpuscope::ui::CompareVerdictsView*>();
    if (verdicts && !verdicts->isComplete()) {
      QEventLoop untilAnalyzed;
      QObject::connect(verdicts, &gpuscope::ui::CompareVerdictsView::completed, &untilAnalyzed, &QEventLoop::quit);
      untilAnalyzed.exec();
    }
    QCoreApplication::exit(saveScreenshot(window, screenshot));
  });
  window.show();
  window.load(pathA, pathB);
  return app.exec();
}

}  // namespace

int main(int argc, char** argv) {
  const bool screenshot = hasFlag(argc, argv, "--screenshot");
  const bool bench = hasFlag(argc, argv, "--bench");
  // A screenshot or a benchmark needs no display: use the offscreen platform unless the user chose one.
  if ((screenshot || bench) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  defaultMessageHandler = qInstallMessageHandler(screenshot ? quietMessageHandler : plainMessageHandler);

  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("gpuscope"));
  QApplication::setApplicationName(QStringLiteral("gpuscope-ui"));
  QApplication::setApplicationVersion(QStringLiteral(GPUSCOPE_VERSION));
  QGuiApplication::setDesktopFileName(QStringLiteral("gpuscope"));
  QApplication::setWindowIcon(gpuscope::ui::applicationIcon());

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("gpuscope viewer: CPU and GPU timelines of CUDA programs, from gpuscope recordings "
                     "and Nsight Systems SQLite exports."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("file"),
                               QStringLiteral("The trace to open; with a second, the two runs are compared (A B)."),
                               QStringLiteral("[FILE [FILE_B]]"));
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QStringLiteral("Load FILE, save the window as a PNG image to OUT.png and exit; needs no display."),
      QStringLiteral("OUT.png"));
  const QCommandLineOption sizeOption(
      QStringLiteral("size"),
      QStringLiteral("Window size as WIDTHxHEIGHT (for --screenshot the default is 1600x1000)."),
      QStringLiteral("WxH"));
  const QCommandLineOption viewOption(
      QStringLiteral("view"),
      QStringLiteral("Open the timeline on FROM:TO, times from the trace start with units, like 797.8ms:802ms."),
      QStringLiteral("FROM:TO"));
  const QCommandLineOption selectOption(
      QStringLiteral("select"),
      QStringLiteral("Select the N-th event (in time order, default 1) whose name contains NAME, like saxpy#3."),
      QStringLiteral("NAME[#N]"));
  const QCommandLineOption benchOption(
      QStringLiteral("bench"),
      QStringLiteral("Measure the timeline on FILE offscreen at 1920x1080: time to first frame and p50/p99 frame "
                     "times over zoom levels and pans; exit 2 when p99 misses 16 ms."),
      QStringLiteral("FILE"));
  parser.addOption(screenshotOption);
  parser.addOption(benchOption);
  parser.addOption(sizeOption);
  parser.addOption(viewOption);
  parser.addOption(selectOption);
  const QCommandLineOption rangeOption(
      QStringLiteral("range"),
      QStringLiteral("Pick FROM:TO as a drag on the ruler does, times from the trace start: the kernel table and its "
                     "stats show only the kernels in it."),
      QStringLiteral("FROM:TO"));
  parser.addOption(rangeOption);
  const QCommandLineOption alignOption(
      QStringLiteral("align"),
      QStringLiteral("With two files: line the runs up at the N-th NVTX range (or kernel) named NAME in each, "
                     "like step#5; --view then counts from A's start."),
      QStringLiteral("NAME[#N]"));
  parser.addOption(alignOption);
  const QCommandLineOption tabOption(QStringLiteral("tab"),
                                     QStringLiteral("With --screenshot: show this tab (timeline, summary, roofline, "
                                                    "analysis; with two files: diff table, roofline)."),
                                     QStringLiteral("NAME"));
  parser.addOption(tabOption);
  const QCommandLineOption analyzeOption(
      QStringLiteral("analyze"),
      QStringLiteral("With --screenshot: analyze the trace before the shot (the Analysis tab's verdict and findings, "
                     "the timeline's shaded GPU gaps); --tab analysis implies it."));
  parser.addOption(analyzeOption);
  parser.process(app);

  if (parser.isSet(benchOption)) return gpuscope::ui::runTimelineBench(parser.value(benchOption));

  const QStringList files = parser.positionalArguments();
  if (files.size() > 2)
    return fail(QStringLiteral("give one trace file, or two to compare (got %1).").arg(files.size()));
  const QString file = files.value(0);

  std::optional<QSize> size;
  if (parser.isSet(sizeOption)) {
    size = parseSize(parser.value(sizeOption));
    if (!size) {
      return fail(QStringLiteral("--size wants WIDTHxHEIGHT between 200x150 and 16384x16384, like 1600x1000, not '%1'.")
                      .arg(parser.value(sizeOption)));
    }
  }

  gpuscope::ui::StartupView startup;
  if (auto error = parseStartupView(parser.value(viewOption), parser.value(selectOption), startup)) return fail(*error);
  if (auto error = parseStartupRange(parser.value(rangeOption), startup)) return fail(*error);
  if (files.size() == 2)
    return runCompare(app, files[0], files[1], parser.value(screenshotOption), size, startup, parser.value(alignOption),
                      parser.value(tabOption));
  if (parser.isSet(alignOption)) return fail(QStringLiteral("--align needs two trace files to compare."));

  const bool batch = parser.isSet(screenshotOption);
  gpuscope::ui::MainWindow window(
      nullptr, batch ? gpuscope::ui::MainWindow::Mode::Batch : gpuscope::ui::MainWindow::Mode::Interactive);

  if (batch) {
    const QString output = parser.value(screenshotOption);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(size.value_or(kScreenshotSize));
    window.show();
    const QString tab = parser.value(tabOption);
    // The file's integrity check runs after the panes are filled (IntegrityChecker); the screenshot is saved
    // at once, and the exit waits for the check, so that a damaged file still ends with its sentence and 1.
    struct Integrity {
      bool checked = false;
      bool damaged = false;
      std::optional<int> exitCode;  // set once the screenshot is saved
    };
    auto integrity = std::make_shared<Integrity>();
    QObject::connect(window.integrity(), &gpuscope::ui::IntegrityChecker::checked, &window,
                     [integrity](const QString&, const QString& problem) {
                       integrity->checked = true;
                       integrity->damaged = !problem.isEmpty();  // the window has printed the sentence
                       if (integrity->exitCode) QCoreApplication::exit(integrity->damaged ? 1 : *integrity->exitCode);
                     });
    auto shoot = [&window, output, tab, integrity, hasFile = !file.isEmpty()] {
      if (auto error = showTab(window.views(), tab)) {
        QCoreApplication::exit(fail(*error));
        return;
      }
      int code = saveScreenshot(window, output);
      if (code != 0 || !hasFile || integrity->checked) {
        QCoreApplication::exit(code != 0 ? code : integrity->damaged ? 1 : 0);
        return;
      }
      integrity->exitCode = code;
    };
    auto save = [&window, startup, shoot] {
      if (auto error = applyStartupView(startup, *window.session())) {
        QCoreApplication::exit(fail(*error));
        return;
      }
      // A --range on a large trace restricts the kernel table on a worker: shoot once its rows are in.
      gpuscope::ui::KernelTableModel* kernels = window.analysisView()->kernels()->instanceModel();
      if (kernels->isUpdating())
        QObject::connect(kernels, &gpuscope::ui::KernelTableModel::rowsReady, &window, shoot, Qt::SingleShotConnection);
      else
        shoot();
    };
    if (parser.isSet(analyzeOption) || tab.compare(QStringLiteral("analysis"), Qt::CaseInsensitive) == 0) {
      QObject::connect(&window, &gpuscope::ui::MainWindow::traceLoaded, &window,
                       [&window] { window.analyzeCurrentTrace(); });
      QObject::connect(&window, &gpuscope::ui::MainWindow::analysisFinished, &window,
                       [save] { QTimer::singleShot(0, save); });
    } else {
      QObject::connect(&window, &gpuscope::ui::MainWindow::panesFilled, &window,
                       [save] { QTimer::singleShot(0, save); });
    }
    QObject::connect(&window, &gpuscope::ui::MainWindow::loadFailed, &window,
                     [] { QCoreApplication::exit(1); });  // the window has printed the one sentence
    QObject::connect(&window, &gpuscope::ui::MainWindow::loadCancelled, &window, [] { QCoreApplication::exit(1); });
    if (file.isEmpty()) {
      QTimer::singleShot(0, save);  // the empty state
    } else {
      window.openFile(file);
    }
    return app.exec();
  }

  if (size) {
    window.resize(*size);
  } else if (!window.restoreWindowGeometry()) {
    QSize initial = kDefaultWindowSize;
    if (const QScreen* screen = QGuiApplication::primaryScreen()) {
      initial = initial.boundedTo(screen->availableGeometry().size() * 0.9);
    }
    window.resize(initial);
  }
  window.show();
  QObject::connect(&window, &gpuscope::ui::MainWindow::traceLoaded, &window, [&window, startup] {
    if (auto error = applyStartupView(startup, *window.session())) fail(*error);
  });
  if (!file.isEmpty()) window.openFile(file);
  return app.exec();
}
