// gpuscope-ui: the viewer. Opens FILE when given, compares A and B when given two; --screenshot renders
// the window to a PNG and exits; --bench FILE measures timeline frame times. This file reads the command
// line; ui/launch/ does what it asks.
#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QRegularExpression>
#include <QSize>
#include <cstdio>
#include <cstring>
#include <optional>

#include "ui/launch/viewer_launch.h"
#include "ui/main_window/application_icon.h"
#include "ui/timeline/timeline_bench.h"

namespace {

using gpuscope::ui::reportFailure;

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

// --help and --version print and exit; they need no display, so they are answered before a GUI exists.
bool asksForHelpOrVersion(int argc, char** argv) {
  for (const char* flag : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
    if (hasFlag(argc, argv, flag)) return true;
  return false;
}

void describeApplication() {
  QCoreApplication::setOrganizationName(QStringLiteral("gpuscope"));
  QCoreApplication::setApplicationName(QStringLiteral("gpuscope-ui"));
  QCoreApplication::setApplicationVersion(QStringLiteral(GPUSCOPE_VERSION));
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

std::optional<QSize> parseSize(const QString& text) {
  static const QRegularExpression pattern(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
  const QRegularExpressionMatch match = pattern.match(text.trimmed());
  if (!match.hasMatch()) return std::nullopt;
  const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
  if (size.width() < 200 || size.height() < 150 || size.width() > 16384 || size.height() > 16384) return std::nullopt;
  return size;
}

struct Options {
  QCommandLineOption screenshot{
      QStringLiteral("screenshot"),
      QStringLiteral("Load FILE, save the window as a PNG image to OUT.png and exit; needs no display."),
      QStringLiteral("OUT.png")};
  QCommandLineOption bench{
      QStringLiteral("bench"),
      QStringLiteral("Measure the timeline on FILE offscreen at 1920x1080: time to first frame and p50/p99 frame "
                     "times over zoom levels and pans; exit 2 when p99 misses 16 ms."),
      QStringLiteral("FILE")};
  QCommandLineOption size{QStringLiteral("size"),
                          QStringLiteral("Window size as WIDTHxHEIGHT (for --screenshot the default is 1600x1000)."),
                          QStringLiteral("WxH")};
  QCommandLineOption view{
      QStringLiteral("view"),
      QStringLiteral("Open the timeline on FROM:TO, times from the trace start with units, like 797.8ms:802ms."),
      QStringLiteral("FROM:TO")};
  QCommandLineOption select{
      QStringLiteral("select"),
      QStringLiteral("Select the N-th event (in time order, default 1) whose name contains NAME, like saxpy#3."),
      QStringLiteral("NAME[#N]")};
  QCommandLineOption range{
      QStringLiteral("range"),
      QStringLiteral("Pick FROM:TO as a drag on the ruler does, times from the trace start: the kernel table and its "
                     "stats show only the kernels in it."),
      QStringLiteral("FROM:TO")};
  QCommandLineOption align{
      QStringLiteral("align"),
      QStringLiteral("With two files: line the runs up at the N-th NVTX range (or kernel) named NAME in each, "
                     "like step#5; --view then counts from A's start."),
      QStringLiteral("NAME[#N]")};
  QCommandLineOption tab{QStringLiteral("tab"),
                         QStringLiteral("With --screenshot: show this tab (timeline, summary, roofline, "
                                        "analysis, or a table under the timeline: kernels, nvtx gpu projection, "
                                        "stats reports; with two files: diff table, roofline)."),
                         QStringLiteral("NAME")};
  QCommandLineOption ranks{
      QStringLiteral("ranks"),
      QStringLiteral("The files are the ranks of one run (nsys exports, gpuscope recordings, PyTorch traces, in any "
                     "mix): open them merged on one clock by their session starts, rows grouped by host and rank.")};
  QCommandLineOption relative{
      QStringLiteral("relative"),
      QStringLiteral("With --ranks: line up every rank's own start at time 0 instead of placing the ranks by their "
                     "absolute session starts, as `gpuscope merge --relative` does.")};
  QCommandLineOption alignCollectives{
      QStringLiteral("align-collectives"),
      QStringLiteral("With --ranks: then move each rank so that its collectives (NCCL kernels) end with the first "
                     "rank's, for hosts whose clocks disagree, as `gpuscope merge --align-collectives` does.")};
  QCommandLineOption analyze{
      QStringLiteral("analyze"),
      QStringLiteral("With --screenshot: analyze the trace before the shot (the Analysis tab's verdict and findings, "
                     "the timeline's shaded GPU gaps); --tab analysis implies it.")};

  void addTo(QCommandLineParser& parser) const {
    parser.setApplicationDescription(
        QStringLiteral("gpuscope viewer: CPU and GPU timelines of CUDA programs, from gpuscope recordings "
                       "and Nsight Systems SQLite exports."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral("The trace to open; with a second, the two runs are compared (A B); with "
                       "--ranks, every file is a rank of one run."),
        QStringLiteral("[FILE [FILE_B | FILE...]]"));
    for (const QCommandLineOption* option : {&screenshot, &bench, &size, &view, &select, &range, &align, &tab, &ranks,
                                             &relative, &alignCollectives, &analyze})
      parser.addOption(*option);
  }

  // What the parsed command line asks the viewer for, or the exit status of the one sentence that says
  // what is wrong with it.
  std::optional<int> read(const QCommandLineParser& parser, gpuscope::ui::ViewerRequest& request) const {
    request.files = parser.positionalArguments();
    request.ranks = parser.isSet(ranks);
    if (request.ranks && request.files.size() < 2)
      return reportFailure(QStringLiteral("--ranks needs two rank files or more (got %1).").arg(request.files.size()));
    if (request.ranks && parser.isSet(align))
      return reportFailure(QStringLiteral("--align compares two runs; --ranks opens the ranks of one run."));
    for (const QCommandLineOption* rankOnly : {&relative, &alignCollectives}) {
      if (!request.ranks && parser.isSet(*rankOnly))
        return reportFailure(QStringLiteral("--%1 places the ranks of one run; give it with --ranks.")
                                 .arg(rankOnly->names().constFirst()));
    }
    request.relative = parser.isSet(relative);
    request.alignCollectives = parser.isSet(alignCollectives);
    if (!request.ranks && request.files.size() > 2)
      return reportFailure(
          QStringLiteral("give one trace file, or two to compare, or the ranks of one run with --ranks (got %1).")
              .arg(request.files.size()));
    if (parser.isSet(size)) {
      request.size = parseSize(parser.value(size));
      if (!request.size) {
        return reportFailure(
            QStringLiteral("--size wants WIDTHxHEIGHT between 200x150 and 16384x16384, like 1600x1000, not '%1'.")
                .arg(parser.value(size)));
      }
    }
    if (auto error = gpuscope::ui::parseStartupView(parser.value(view), parser.value(select), request.startup))
      return reportFailure(*error);
    if (auto error = gpuscope::ui::parseStartupRange(parser.value(range), request.startup))
      return reportFailure(*error);
    if (parser.isSet(align) && request.files.size() != 2)
      return reportFailure(QStringLiteral("--align needs two trace files to compare."));
    if (parser.isSet(screenshot)) request.screenshot = parser.value(screenshot);
    request.align = parser.value(align);
    request.tab = parser.value(tab);
    request.analyze = parser.isSet(analyze);
    return std::nullopt;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Options options;
  if (asksForHelpOrVersion(argc, argv)) {
    QCoreApplication app(argc, argv);
    describeApplication();
    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);  // prints the help or the version and exits 0; a bad option exits 1 with its sentence
    return 0;
  }
  const bool screenshot = hasFlag(argc, argv, "--screenshot");
  const bool bench = hasFlag(argc, argv, "--bench");
  // A screenshot or a benchmark needs no display: use the offscreen platform unless the user chose one.
  if ((screenshot || bench) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  defaultMessageHandler = qInstallMessageHandler(screenshot ? quietMessageHandler : plainMessageHandler);

  QApplication app(argc, argv);
  describeApplication();
  QGuiApplication::setDesktopFileName(QStringLiteral("gpuscope"));
  QApplication::setWindowIcon(gpuscope::ui::applicationIcon());

  QCommandLineParser parser;
  options.addTo(parser);
  parser.process(app);
  if (parser.isSet(options.bench)) return gpuscope::ui::runTimelineBench(parser.value(options.bench));

  gpuscope::ui::ViewerRequest request;
  if (auto status = options.read(parser, request)) return *status;
  return gpuscope::ui::runViewer(request);
}
