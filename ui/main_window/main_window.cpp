#include "ui/main_window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>
#include <cstdio>
#include <tuple>
#include <utility>

#include "core/error.h"
#include "ui/analysis/background_analysis.h"
#include "ui/compare/compare_window.h"
#include "ui/loading/background_trace_loader.h"
#include "ui/loading/integrity_checker.h"
#include "ui/loading/load_progress_widget.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/application_icon.h"
#include "ui/main_window/keyboard_shortcuts.h"
#include "ui/main_window/recent_files.h"
#include "ui/main_window/trace_file_names.h"
#include "ui/main_window/welcome_view.h"
#include "ui/roofline/ncu_import_job.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"
#include "ui/summary/trace_summary_view.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"

namespace gpuscope::ui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
constexpr int kStatusTimeoutMs = 8000;

}  // namespace

MainWindow::MainWindow(std::unique_ptr<QSettings> settings, Mode mode, QWidget* parent)
    : QMainWindow(parent),
      settings_(settings ? std::move(settings) : std::make_unique<QSettings>()),
      recent_(std::make_unique<RecentFiles>(settings_.get())),
      session_(new TraceSession(this)),
      loader_(new BackgroundTraceLoader(this)),
      integrity_(new IntegrityChecker(this)),
      pages_(new QStackedWidget(this)),
      welcome_(new WelcomeView(pages_)),
      views_(new QTabWidget(pages_)),
      summary_(new TraceSummaryView(session_, views_)),
      progress_(new LoadProgressWidget(loader_, this)),
      batch_(mode == Mode::Batch) {
  recent_->setReadOnly(batch_);
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(applicationIcon());
  setAcceptDrops(true);

  views_->setObjectName(QStringLiteral("views"));
  views_->setDocumentMode(true);
  analysis_ = new AnalysisView(session_, views_);
  views_->addTab(analysis_, tr("Timeline"));
  views_->addTab(summary_, tr("Summary"));
  roofline_ = new RooflineView(session_, views_);
  views_->addTab(roofline_, tr("Roofline"));
  setupAnalysis();
  pages_->addWidget(welcome_);
  pages_->addWidget(views_);
  setCentralWidget(pages_);
  statusBar()->addPermanentWidget(progress_);

  reportError_ = [this](const QString& title, const QString& message) { QMessageBox::critical(this, title, message); };

  createActions();
  createMenus();

  connect(loader_, &BackgroundTraceLoader::started, this, &MainWindow::onLoadStarted);
  connect(loader_, &BackgroundTraceLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &BackgroundTraceLoader::failed, this, &MainWindow::onLoadFailed);
  connect(loader_, &BackgroundTraceLoader::cancelled, this, &MainWindow::onLoadCancelled);
  // The file's integrity check waits until the window shows the trace (see IntegrityChecker).
  loader_->setIntegrityCheckDeferred(true);
  // Not while an ncu import rewrites the file in place: the reload that follows checks it.
  connect(this, &MainWindow::panesFilled, integrity_, [this](const QString& path) {
    if (!rewritingInPlace_) integrity_->check(path);
  });
  // So are the correlation indexes (launch <-> GPU work): built on a worker once the window shows the
  // trace, the open does not wait for them and the first click on a launch seldom does.
  connect(this, &MainWindow::panesFilled, this, [this] {
    if (auto trace = session_->trace())
      QThreadPool::globalInstance()->start([trace] { trace->buildCorrelationIndexes(); });
  });
  connect(integrity_, &IntegrityChecker::checked, this, &MainWindow::onIntegrityChecked);
  connect(session_, &TraceSession::traceChanged, this, &MainWindow::updateState);
  connect(recent_.get(), &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);
  connect(welcome_, &WelcomeView::openDialogRequested, this, &MainWindow::showOpenDialog);
  connect(welcome_, &WelcomeView::openRequested, this, &MainWindow::openFile);

  rebuildRecentMenu();
  updateState();
}

MainWindow::~MainWindow() = default;

bool MainWindow::showsTrace() const { return pages_->currentWidget() == views_; }

void MainWindow::setErrorReporter(ErrorReporter reporter) { reportError_ = std::move(reporter); }

void MainWindow::reportError(const QString& title, const QString& message) {
  std::fprintf(stderr, "gpuscope-ui: %s\n", message.toLocal8Bit().constData());
  std::fflush(stderr);
  if (!batch_ && reportError_) reportError_(title, message);
}

bool MainWindow::restoreWindowGeometry() {
  const QByteArray geometry = settings_->value(kGeometryKey).toByteArray();
  if (geometry.isEmpty() || !restoreGeometry(geometry)) return false;
  restoreState(settings_->value(kStateKey).toByteArray());
  return true;
}

void MainWindow::createActions() {
  openAction_ = new QAction(tr("&Open…"), this);
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setStatusTip(
      tr("Open a gpuscope recording, an Nsight Systems SQLite export or a PyTorch profiler trace"));
  connect(openAction_, &QAction::triggered, this, &MainWindow::showOpenDialog);

  reloadAction_ = new QAction(tr("&Reload"), this);
  reloadAction_->setShortcut(QKeySequence::Refresh);
  reloadAction_->setStatusTip(tr("Load the current file again, for example after recording it anew"));
  connect(reloadAction_, &QAction::triggered, this, &MainWindow::reload);

  closeAction_ = new QAction(tr("&Close Trace"), this);
  closeAction_->setShortcut(QKeySequence::Close);
  closeAction_->setStatusTip(tr("Close the trace and free its memory"));
  connect(closeAction_, &QAction::triggered, this, &MainWindow::closeTrace);

  compareAction_ = new QAction(tr("Com&pare With…"), this);
  compareAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
  compareAction_->setStatusTip(tr("Open a second run and compare it with this one, side by side"));
  connect(compareAction_, &QAction::triggered, this, &MainWindow::showCompareDialog);

  importNcuAction_ = new QAction(tr("Import &ncu Metrics…"), this);
  importNcuAction_->setObjectName(QStringLiteral("importNcuMetrics"));
  importNcuAction_->setStatusTip(
      tr("Attach an `ncu --csv` report's counters to this trace's kernels, for the roofline"));
  connect(importNcuAction_, &QAction::triggered, this, &MainWindow::showImportNcuDialog);
  ncuImport_ = new NcuImportJob(this);
  connect(ncuImport_, &NcuImportJob::finished, this,
          [this](const QString& target, const QString& summary, const QStringList& notes) {
            importNcuAction_->setEnabled(session_->hasTrace());
            rewritingInPlace_ = false;
            statusBar()->showMessage(summary + (notes.isEmpty() ? QString() : " " + notes.join("; ") + "."));
            openFile(target);
          });
  connect(ncuImport_, &NcuImportJob::failed, this, [this](const QString& message) {
    importNcuAction_->setEnabled(session_->hasTrace());
    reportError_(tr("Cannot Import ncu Metrics"), message);
    if (std::exchange(rewritingInPlace_, false) && !currentFile_.isEmpty()) integrity_->check(currentFile_);
  });

  sessionsAction_ = new QAction(tr("&Sessions…"), this);
  sessionsAction_->setObjectName(QStringLiteral("sessionsAction"));
  sessionsAction_->setStatusTip(
      tr("The programs running under `gpuscope launch --session`: start and stop recordings"));
  connect(sessionsAction_, &QAction::triggered, this, &MainWindow::showSessionsWindow);

  quitAction_ = new QAction(tr("&Quit"), this);
  quitAction_->setShortcut(QKeySequence::Quit);
  quitAction_->setMenuRole(QAction::QuitRole);
  connect(quitAction_, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAction_);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  recentMenu_->setObjectName(QStringLiteral("recentMenu"));
  // Pruned when opened, so a file deleted meanwhile disappears from the list.
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  file->addAction(sessionsAction_);
  file->addAction(compareAction_);
  file->addAction(importNcuAction_);
  file->addAction(reloadAction_);
  file->addAction(closeAction_);
  file->addSeparator();
  file->addAction(quitAction_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QMenu* timeBase = view->addMenu(tr("&Times Count From"));
  auto* bases = new QActionGroup(this);
  for (auto [base, label, name] :
       {std::tuple{TimeBase::Trace, tr("The &Trace Start"), "timeBaseTrace"},
        std::tuple{TimeBase::Session, tr("The &Session Start (session time)"), "timeBaseSession"}}) {
    QAction* action = timeBase->addAction(label);
    action->setObjectName(QString::fromLatin1(name));
    action->setCheckable(true);
    action->setChecked(session_->timeBase() == base);
    bases->addAction(action);
    connect(action, &QAction::triggered, this, [this, base = base] { session_->setTimeBase(base); });
  }

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showKeyboardShortcuts(this); });
  shortcuts->setObjectName(QStringLiteral("keyboardShortcuts"));
  shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
  help->addSeparator();
  QAction* about = help->addAction(tr("&About gpuscope"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
  QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::rebuildRecentMenu() {
  const QStringList files = recent_->files();
  recentMenu_->clear();
  for (int i = 0; i < files.size(); ++i) {
    const QFileInfo info(files[i]);
    // Mnemonics 1..9, then 0 for the tenth.
    const QString text =
        tr("&%1  %2  —  %3")
            .arg((i + 1) % 10)
            .arg(info.fileName().replace(QLatin1Char('&'), QLatin1String("&&")),
                 QDir::toNativeSeparators(info.absolutePath()).replace(QLatin1Char('&'), QLatin1String("&&")));
    QAction* action = recentMenu_->addAction(text);
    action->setData(files[i]);
    action->setStatusTip(files[i]);
    const QString path = files[i];
    connect(action, &QAction::triggered, this, [this, path] { openFile(path); });
  }
  if (files.isEmpty()) {
    recentMenu_->addAction(tr("No Recent Files"))->setEnabled(false);
  } else {
    recentMenu_->addSeparator();
    connect(recentMenu_->addAction(tr("Clear Recent Files")), &QAction::triggered, recent_.get(), &RecentFiles::clear);
  }
  welcome_->setRecentFiles(files);
}

void MainWindow::updateState() {
  const bool hasTrace = session_->hasTrace();
  pages_->setCurrentWidget(hasTrace ? static_cast<QWidget*>(views_) : welcome_);
  welcome_->setLoadingFile(loader_->isLoading() && !hasTrace ? loader_->currentPath() : QString());
  // The folder too: three recordings named gs.sqlite must not look alike.
  setWindowTitle(
      traceWindowTitle(hasTrace ? currentFile_ : QString(), currentFile_ == titleWhereFile_ ? titleWhere_ : QString()));
  setWindowFilePath(hasTrace ? currentFile_ : QString());
  reloadAction_->setEnabled(!currentFile_.isEmpty());
  closeAction_->setEnabled(hasTrace);
  compareAction_->setEnabled(hasTrace);
  importNcuAction_->setEnabled(hasTrace && !ncuImport_->isRunning());
}

void MainWindow::showImportNcuDialog() {
  if (!session_->hasTrace()) return;
  const QString report = askNcuReport(this, currentFile_);
  if (!report.isEmpty()) importNcuReport(report);
}

void MainWindow::importNcuReport(const QString& report) {
  if (!session_->hasTrace()) return;
  // What the report matches is said, and a partial match asked about, before anything is written.
  QString error;
  auto match = previewNcuMatch(this, currentFile_, report, error);
  if (!match) {
    if (!error.isEmpty()) reportError_(tr("Cannot Import ncu Metrics"), error);
    return;
  }
  NcuImportOptions options;
  if (confirmNcuImport(this, currentFile_, report, *match, options)) startNcuImport(options);
}

bool MainWindow::startNcuImport(const NcuImportOptions& options) {
  if (ncuImport_->isRunning()) return false;
  if (options.inPlace) {
    integrity_->cancel();
    // The reload analyzes the new content. The old analysis is let finish first (tens of milliseconds): a
    // reader of the file still running when the writer starts could hold its lock past the writer's wait.
    analyzer_->cancel();
    analyzer_->waitForWorkers();
    rewritingInPlace_ = true;
  }
  if (!ncuImport_->start(options)) {
    rewritingInPlace_ = false;
    return false;
  }
  importNcuAction_->setEnabled(false);
  statusBar()->showMessage(tr("Importing %1…").arg(QFileInfo(QString::fromStdString(options.ncuCsvPath)).fileName()));
  return true;
}

void MainWindow::openFile(const QString& path) {
  if (path.isEmpty()) return;
  loader_->load(QFileInfo(path).absoluteFilePath());
}

void MainWindow::openFileTitled(const QString& path, const QString& where) {
  titleWhereFile_ = QFileInfo(path).absoluteFilePath();
  titleWhere_ = where;
  openFile(path);
}

QWidget* MainWindow::compareWith(const QString& path) {
  if (currentFile_.isEmpty() || path.isEmpty()) return nullptr;
  // Its own copies of both traces, loaded in the background: the compare window outlives a trace closed or
  // reloaded here. A file that cannot be read closes it with one sentence.
  CompareWindow* window = openCompare(currentFile_, QFileInfo(path).absoluteFilePath(), this);
  connect(window, &CompareWindow::failed, this, [this, window](const QString& error) {
    reportError(tr("Cannot Compare"), error);
    window->close();
  });
  return window;
}

void MainWindow::reload() {
  if (!currentFile_.isEmpty()) openFile(currentFile_);
}

void MainWindow::closeTrace() {
  loader_->cancel();
  analyzer_->cancel();
  currentFile_.clear();
  session_->setTrace(nullptr);
  statusBar()->clearMessage();
}

void MainWindow::onLoadStarted(const QString& path) {
  statusBar()->clearMessage();
  updateState();
  Q_UNUSED(path);
}

void MainWindow::onLoaded(const QString& path, std::shared_ptr<const Trace> trace, qint64 elapsedMs) {
  currentFile_ = path;
  const size_t events = trace->counts().total();
  session_->setTrace(std::move(trace));  // updateState() follows through traceChanged
  if (!batch_) recent_->add(path);
  if (!batch_) analyzeCurrentTrace();
  statusBar()->showMessage(tr("Loaded %1: %2 events in %3.")
                               .arg(QFileInfo(path).fileName(), QLocale().toString(static_cast<qulonglong>(events)),
                                    elapsedMs < 1000 ? tr("%1 ms").arg(elapsedMs)
                                                     : tr("%1 s").arg(QLocale().toString(elapsedMs / 1000.0, 'f', 1))),
                           kStatusTimeoutMs);
  emit traceLoaded(path);
  KernelTableModel* kernels = analysis_->kernels()->instanceModel();
  if (!kernels->isUpdating()) {
    emit panesFilled(path);
    return;
  }
  auto* once = new QObject(this);  // the connection lives until the rows are ready, or a newer load starts
  connect(kernels, &KernelTableModel::rowsReady, once, [this, once, path] {
    once->deleteLater();
    if (path == currentFile_) emit panesFilled(path);
  });
  connect(loader_, &BackgroundTraceLoader::started, once, &QObject::deleteLater);
}

void MainWindow::onIntegrityChecked(const QString& path, const QString& problem) {
  if (problem.isEmpty() || path != currentFile_) return;
  const QString warning = tr("%1 What is shown may be incomplete or wrong.").arg(problem);
  std::fprintf(stderr, "gpuscope-ui: %s\n", warning.toLocal8Bit().constData());
  std::fflush(stderr);
  statusBar()->showMessage(warning);  // no timeout: it stays until the next load
  if (batch_) return;
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Damaged Trace File"), warning, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::onLoadFailed(const QString& path, const QString& message) {
  if (!QFileInfo::exists(path)) recent_->remove(path);
  updateState();
  statusBar()->showMessage(tr("Could not open %1.").arg(QFileInfo(path).fileName()), kStatusTimeoutMs);
  reportError(tr("Cannot Open Trace"), message);
  emit loadFailed(path, message);
}

void MainWindow::onLoadCancelled(const QString& path) {
  updateState();
  statusBar()->showMessage(tr("Stopped loading %1.").arg(QFileInfo(path).fileName()), kStatusTimeoutMs);
  emit loadCancelled(path);
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About gpuscope"),
                     tr("<h3>gpuscope %1</h3>"
                        "<p>An open-source GPU profiler: CPU and GPU timelines, kernel tables and rooflines for CUDA "
                        "programs, recorded with <code>gpuscope record</code> or exported from Nsight Systems.</p>"
                        "<p>Built with Qt %2.</p>")
                         .arg(QCoreApplication::applicationVersion().toHtmlEscaped(), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!batch_) {
    settings_->setValue(kGeometryKey, saveGeometry());
    settings_->setValue(kStateKey, saveState());
  }
  loader_->cancel();
  QMainWindow::closeEvent(event);
}

}  // namespace gpuscope::ui
