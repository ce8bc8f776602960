// gpuscope-ui: the viewer. Opens FILE when given; --screenshot renders the window to a PNG and exits.
#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QPixmap>
#include <QRegularExpression>
#include <QScreen>
#include <QSize>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <optional>

#include "ui/main_window/application_icon.h"
#include "ui/main_window/main_window.h"
#include "ui/main_window/startup_view.h"


namespace {

constexpr QSize kScreenshotSize(1600, 1000);
constexpr QSize kDefaultWindowSize(1400, 900);

// Looked for before QApplication exists, because the platform plugin is chosen when it starts.
bool wantsScreenshot(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) break;
    if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0) return true;
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
void quietMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg) defaultMessageHandler(type, context, message);
}

int fail(const QString& message) {
  std::fprintf(stderr, "gpuscope-ui: %s\n", message.toLocal8Bit().constData());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool screenshot = wantsScreenshot(argc, argv);
  // A screenshot needs no display: use the offscreen platform unless the user chose one.
  if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  if (screenshot) defaultMessageHandler = qInstallMessageHandler(quietMessageHandler);

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
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("The trace to open."), QStringLiteral("[FILE]"));
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
  parser.addOption(screenshotOption);
  parser.addOption(sizeOption);
  parser.addOption(viewOption);
  parser.addOption(selectOption);
  parser.process(app);

  const QStringList files = parser.positionalArguments();
  if (files.size() > 1) return fail(QStringLiteral("give at most one trace file (got %1).").arg(files.size()));
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

  const bool batch = parser.isSet(screenshotOption);
  gpuscope::ui::MainWindow window(
      nullptr, batch ? gpuscope::ui::MainWindow::Mode::Batch : gpuscope::ui::MainWindow::Mode::Interactive);

  if (batch) {
    const QString output = parser.value(screenshotOption);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(size.value_or(kScreenshotSize));
    window.show();
    auto save = [&window, output, startup] {
      if (auto error = applyStartupView(startup, *window.session())) {
        QCoreApplication::exit(fail(*error));
        return;
      }
      QCoreApplication::processEvents();
      if (!window.grab().save(output, "PNG")) {
        QCoreApplication::exit(fail(QStringLiteral("could not write the screenshot to %1.").arg(output)));
        return;
      }
      QCoreApplication::exit(0);
    };
    QObject::connect(&window, &gpuscope::ui::MainWindow::traceLoaded, &window, [save] { QTimer::singleShot(0, save); });
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
