#pragma once
// MainWindow: the gpuscope-ui window: menus, background loading, the empty state and the view tabs.
#include <QMainWindow>
#include <QSettings>
#include <QString>
#include <functional>
#include <memory>

#include "core/model/trace.h"

class QAction;
class QLabel;
class QMenu;
class QMimeData;
class QStackedWidget;
class QTabWidget;

namespace gpuscope {
struct NcuImportOptions;
}

namespace gpuscope::ui {

class AnalysisPanel;
class AnalysisView;
class BackgroundAnalysis;
class BackgroundTraceLoader;
class IntegrityChecker;
class LoadProgressWidget;
class NcuImportJob;
class RecentFiles;
class RooflineView;
class SessionsWindow;
class TraceSession;
class TraceSummaryView;
class WelcomeView;

// Views go into views() as tabs and observe session(); the window owns both. It shows the
// WelcomeView until a trace is loaded, then the tabs. Loading runs on a worker thread; a load
// that is superseded or cancelled never reaches the session.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // TITLE says what failed ("Cannot Open Trace", "Cannot Import ncu Metrics"); MESSAGE is one sentence.
  using ErrorReporter = std::function<void(const QString& title, const QString& message)>;
  // Batch (for --screenshot): no dialogs, and the settings are read but never written.
  enum class Mode { Interactive, Batch };

  // SETTINGS keeps the recent files and the window geometry; null: the application's QSettings.
  explicit MainWindow(std::unique_ptr<QSettings> settings = nullptr, Mode mode = Mode::Interactive,
                      QWidget* parent = nullptr);
  ~MainWindow() override;

  TraceSession* session() const { return session_; }
  // The central tabs: "Summary" first; the timeline and other views are added here.
  QTabWidget* views() const { return views_; }
  TraceSummaryView* summaryView() const { return summary_; }
  // The timeline with its tables and details panel: the first tab.
  AnalysisView* analysisView() const { return analysis_; }
  // The roofline of the trace's kernels (from imported or recorded metrics): the third tab.
  RooflineView* rooflineView() const { return roofline_; }
  // The Analysis tab: the verdict and the findings, computed in the background after each load.
  AnalysisPanel* analysisPanel() const { return analysisPanel_; }
  BackgroundAnalysis* analyzer() const { return analyzer_; }
  BackgroundTraceLoader* loader() const { return loader_; }
  IntegrityChecker* integrity() const { return integrity_; }
  RecentFiles* recentFiles() const { return recent_.get(); }
  WelcomeView* welcomeView() const { return welcome_; }
  LoadProgressWidget* progressWidget() const { return progress_; }
  QMenu* recentMenu() const { return recentMenu_; }
  // The file whose trace is shown; empty before any.
  const QString& currentFile() const { return currentFile_; }
  // True when the tabs show a trace, false while the empty state is up.
  bool showsTrace() const;

  // Replaces how load errors are shown (default: a critical QMessageBox). Every error also goes
  // to stderr as one line, whatever the reporter.
  void setErrorReporter(ErrorReporter reporter);
  // Says MESSAGE (one sentence) on stderr and, unless in Batch mode, through the error reporter under TITLE.
  void reportError(const QString& title, const QString& message);
  Mode mode() const { return batch_ ? Mode::Batch : Mode::Interactive; }
  // Restores the geometry saved when the window last closed; false when there is none.
  bool restoreWindowGeometry();

  // The local file a drag carries, if it carries exactly what we can open; empty otherwise.
  static QString droppedFile(const QMimeData* mime);

 public slots:
  // Starts loading PATH in the background; the current trace stays up until the new one is ready.
  void openFile(const QString& path);
  // As openFile, and while PATH is shown the title says WHERE in place of its folder ("2 ranks merged,
  // temporary" for a file the viewer made in a temporary folder).
  void openFileTitled(const QString& path, const QString& where);
  void showOpenDialog();
  void reload();
  void closeTrace();
  // Opens the compare window of the current trace (A) and PATH (B), which loads both in the background
  // (a CompareWindow); load errors go to the error reporter and close it. Null without a current trace.
  QWidget* compareWith(const QString& path);
  void showCompareDialog();
  // File > Import ncu Metrics: asks for the report, then importNcuReport.
  void showImportNcuDialog();
  // Matches REPORT to the current trace and says what matched (N of M launches), refusing in one sentence a
  // report that matches nothing and asking before a partial match; then asks where the metrics go and runs
  // startNcuImport. Nothing is written before the user answers.
  void importNcuReport(const QString& report);
  // Runs `import-ncu` with OPTIONS in the background and opens the file that holds the metrics when it is
  // done (errors go to the error reporter); false while another import runs.
  bool startNcuImport(const NcuImportOptions& options);
  // Analyzes the current file in the background (after every load; in Batch mode only when asked).
  void analyzeCurrentTrace();
  // File > Sessions…: shows the one Sessions window, raised, creating it the first time; the files its
  // sessions write open here, as File > Open would open them.
  SessionsWindow* showSessionsWindow();

 signals:
  void traceLoaded(const QString& path);
  // After traceLoaded, once every pane shows the trace (the kernel table sorts a large one on a worker).
  void panesFilled(const QString& path);
  void loadFailed(const QString& path, const QString& message);
  void loadCancelled(const QString& path);
  // The Analysis tab shows the analysis of PATH (FAILED: it says why it could not be made).
  void analysisFinished(const QString& path, bool failed);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dragLeaveEvent(QDragLeaveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void setupAnalysis();  // main_window_analysis.cpp
  void createActions();
  void createMenus();
  void rebuildRecentMenu();
  void updateState();
  void onLoadStarted(const QString& path);
  void onLoaded(const QString& path, std::shared_ptr<const Trace> trace, qint64 elapsedMs);
  void onLoadFailed(const QString& path, const QString& message);
  void onLoadCancelled(const QString& path);
  void onIntegrityChecked(const QString& path, const QString& problem);
  void showAbout();

  std::unique_ptr<QSettings> settings_;
  std::unique_ptr<RecentFiles> recent_;
  TraceSession* session_;
  BackgroundTraceLoader* loader_;
  IntegrityChecker* integrity_;
  bool rewritingInPlace_ = false;  // an ncu import is rewriting the open file: no integrity check meanwhile
  QStackedWidget* pages_;
  WelcomeView* welcome_;
  QTabWidget* views_;
  TraceSummaryView* summary_;
  AnalysisView* analysis_ = nullptr;
  RooflineView* roofline_ = nullptr;
  AnalysisPanel* analysisPanel_ = nullptr;
  BackgroundAnalysis* analyzer_ = nullptr;
  LoadProgressWidget* progress_;
  QMenu* recentMenu_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* reloadAction_ = nullptr;
  QAction* closeAction_ = nullptr;
  QAction* compareAction_ = nullptr;
  QAction* importNcuAction_ = nullptr;
  QAction* sessionsAction_ = nullptr;
  SessionsWindow* sessionsWindow_ = nullptr;
  NcuImportJob* ncuImport_ = nullptr;
  QAction* quitAction_ = nullptr;
  ErrorReporter reportError_;
  QString titleWhereFile_;  // the file whose title says titleWhere_ instead of its folder
  QString titleWhere_;
  QString currentFile_;
  const bool batch_;
};

}  // namespace gpuscope::ui
