// File > Import ncu Metrics: the background job runs the same core import as `gpuscope import-ncu`, and the
// window opens the file that holds the metrics, whose Roofline tab then has points. Before anything is
// written the window says what the CLI says ("N of M profiled kernel launches"), asks when the match is
// partial, or says why it cannot import at all (issue 30, point 3). The report is handed in past the file
// dialog (MainWindow::importNcuReport), which the offscreen platform never shows; the question boxes after it
// are answered as a user would.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "core/model/trace_file.h"
#include "core/roofline/kernel_metrics_table.h"
#include "tests/core/testing/gz_fixture.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/test_timeouts.h"
#include "ui/loading/integrity_checker.h"
#include "ui/main_window/main_window.h"
#include "ui/roofline/ncu_import_job.h"
#include "ui/roofline/roofline_view.h"

namespace gpuscope::ui {
namespace {

using testing::kFixtures;
const std::string kTrace = kFixtures + "/nsys/transpose.sqlite";
const std::string kReport = kFixtures + "/nsys/transpose_ncu_metrics.csv";
using test::kTimeoutMs;

TEST(NcuImportJob, WritesTheMetricsIntoANewCopyInTheBackground) {
  QTemporaryDir dir;
  std::string out = dir.filePath("with_metrics.sqlite").toStdString();
  NcuImportJob job;
  QSignalSpy finished(&job, &NcuImportJob::finished);
  QSignalSpy failed(&job, &NcuImportJob::failed);
  ASSERT_TRUE(job.start({kTrace, kReport, out, false}));
  EXPECT_TRUE(job.isRunning());
  EXPECT_FALSE(job.start({kTrace, kReport, out, false}));  // one at a time
  ASSERT_TRUE(finished.wait(kTimeoutMs));
  EXPECT_EQ(failed.count(), 0);
  EXPECT_EQ(finished.at(0).at(0).toString().toStdString(), out);
  QString summary = finished.at(0).at(1).toString();
  EXPECT_TRUE(summary.startsWith("Attached the metrics of 6 of 6 profiled kernel launches")) << summary.toStdString();
  EXPECT_EQ(readKernelMetrics(openTraceFile(out)).size(), 6u);
  EXPECT_FALSE(openTraceFile(kTrace).hasTable(kKernelMetricsTable));  // the input is untouched
}

TEST(NcuImportJob, ABadReportFailsWithOneSentence) {
  QTemporaryDir dir;
  QString notCsv = dir.filePath("notes.csv");
  {
    QFile file(notCsv);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("this is not an ncu report\n");
  }
  NcuImportJob job;
  QSignalSpy failed(&job, &NcuImportJob::failed);
  ASSERT_TRUE(job.start({kTrace, notCsv.toStdString(), dir.filePath("out.sqlite").toStdString(), false}));
  ASSERT_TRUE(failed.wait(kTimeoutMs));
  QString message = failed.at(0).at(0).toString();
  EXPECT_FALSE(message.isEmpty());
  EXPECT_EQ(message.count('\n'), 0) << message.toStdString();
}

TEST(NcuImportMenu, ImportsIntoACopyAndOpensItWithItsRoofline) {
  QTemporaryDir dir;
  MainWindow window(std::make_unique<QSettings>(dir.filePath("settings.ini"), QSettings::IniFormat));
  QStringList errors;
  window.setErrorReporter([&errors](const QString&, const QString& message) { errors << message; });
  auto* action = window.findChild<QAction*>(QStringLiteral("importNcuMetrics"));
  ASSERT_NE(action, nullptr);
  bool inFileMenu = false;
  for (auto* menu : window.menuBar()->findChildren<QMenu*>())
    if (menu->title() == QObject::tr("&File")) inFileMenu = menu->actions().contains(action);
  EXPECT_TRUE(inFileMenu);
  EXPECT_FALSE(action->isEnabled());  // nothing open to import into

  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  window.openFile(QString::fromStdString(kTrace));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_TRUE(action->isEnabled());
  EXPECT_TRUE(window.rooflineView()->points().empty());

  QString out = dir.filePath("transpose_metrics.sqlite");
  ASSERT_TRUE(window.startNcuImport({kTrace, kReport, out.toStdString(), false}));
  EXPECT_FALSE(action->isEnabled());  // while it runs
  ASSERT_TRUE(loaded.wait(kTimeoutMs)) << errors.join(' ').toStdString();
  EXPECT_TRUE(errors.isEmpty()) << errors.join(' ').toStdString();
  EXPECT_EQ(loaded.last().at(0).toString(), QFileInfo(out).absoluteFilePath());
  EXPECT_EQ(window.rooflineView()->points().size(), 3u);  // kernels by name
  EXPECT_TRUE(action->isEnabled());
}

TEST(NcuImportMenu, ImportsIntoTheOpenFileInPlaceAndReloadsIt) {
  QTemporaryDir dir;
  QString trace = dir.filePath("transpose.sqlite");
  ASSERT_TRUE(QFile::copy(QString::fromStdString(kTrace), trace));
  MainWindow window(std::make_unique<QSettings>(dir.filePath("settings.ini"), QSettings::IniFormat));
  QStringList errors;
  window.setErrorReporter([&errors](const QString&, const QString& message) { errors << message; });
  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  window.openFile(trace);
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  NcuImportOptions options;
  options.tracePath = trace.toStdString();
  options.ncuCsvPath = kReport;
  options.inPlace = true;  // as `import-ncu --in-place`
  ASSERT_TRUE(window.startNcuImport(options));
  ASSERT_TRUE(loaded.wait(kTimeoutMs)) << errors.join(' ').toStdString();
  EXPECT_TRUE(errors.isEmpty()) << errors.join(' ').toStdString();
  EXPECT_EQ(loaded.last().at(0).toString(), QFileInfo(trace).absoluteFilePath());
  EXPECT_EQ(readKernelMetrics(openTraceFile(trace.toStdString())).size(), 6u);
  EXPECT_EQ(window.rooflineView()->points().size(), 3u);
}

// Answers the question boxes of an ncu import as a user would: notes what each says, then presses the
// button whose text starts with PRESS (Cancel when empty). A file dialog is counted and rejected, so that a
// flow that wrongly asks for a file fails the test instead of hanging it.
class QuestionAnswers : public QObject {
 public:
  explicit QuestionAnswers(QString press = {}) : press_(std::move(press)) {
    connect(&timer_, &QTimer::timeout, this, &QuestionAnswers::answer);
    timer_.start(20);
  }
  QStringList questions;           // text and informative text of each question box
  QList<QMessageBox::Icon> icons;  // and its icon
  QList<bool> cancelIsDefault;     // and whether Enter would cancel
  int fileDialogs = 0;

 private:
  void answer() {
    QWidget* modal = QApplication::activeModalWidget();
    if (auto* files = qobject_cast<QFileDialog*>(modal)) {
      ++fileDialogs;
      files->reject();
    } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      questions << box->text() + "\n" + box->informativeText();
      icons << box->icon();
      cancelIsDefault << (static_cast<QAbstractButton*>(box->defaultButton()) == box->button(QMessageBox::Cancel));
      QAbstractButton* chosen = box->button(QMessageBox::Cancel);
      for (QAbstractButton* button : box->buttons())
        if (!press_.isEmpty() && button->text().startsWith(press_)) chosen = button;
      if (chosen)
        chosen->click();
      else
        box->close();  // a box that asks nothing (a warning): noted above, which fails the test that counts them
    }
  }
  QString press_;
  QTimer timer_;
};

// A window with a copy of TRACE open, so that anything written lands in DIR.
std::unique_ptr<MainWindow> windowWith(const QTemporaryDir& dir, const std::string& trace, QStringList& errors,
                                       QStringList* titles = nullptr) {
  QString copy = dir.filePath(QFileInfo(QString::fromStdString(trace)).fileName());
  EXPECT_TRUE(QFile::copy(QString::fromStdString(trace), copy));
  auto window =
      std::make_unique<MainWindow>(std::make_unique<QSettings>(dir.filePath("settings.ini"), QSettings::IniFormat));
  window->setErrorReporter([&errors, titles](const QString& title, const QString& message) {
    errors << message;
    if (titles) *titles << title;
  });
  QSignalSpy loaded(window.get(), &MainWindow::traceLoaded);
  window->openFile(copy);
  EXPECT_TRUE(loaded.wait(kTimeoutMs));
  return window;
}

QStringList tracesIn(const QTemporaryDir& dir) { return QDir(dir.path()).entryList({"*.sqlite*"}, QDir::Files); }

TEST(NcuImportMenu, APartialMatchSaysNOfMAndAsksBeforeWritingAnything) {
  // A PyTorch program's report on another program's trace: the CLI says "Attached the metrics of 1 of 40".
  QTemporaryDir dir;
  QStringList errors;
  auto window = windowWith(dir, testing::classFixture("graph", "nsys"), errors);
  QSignalSpy loaded(window.get(), &MainWindow::traceLoaded);
  QuestionAnswers answers;
  window->importNcuReport(QString::fromStdString(kFixtures + "/ncu/loader2_ncu_metrics.csv"));
  EXPECT_EQ(answers.fileDialogs, 0);
  ASSERT_EQ(answers.questions.size(), 1) << errors.join(' ').toStdString();
  QString question = answers.questions.front();
  EXPECT_TRUE(question.contains("1 of 40 profiled kernel launches")) << question.toStdString();
  EXPECT_TRUE(question.contains("same program")) << question.toStdString();
  EXPECT_EQ(answers.icons.front(), QMessageBox::Warning);
  EXPECT_TRUE(answers.cancelIsDefault.front());
  // Cancelled: nothing written, nothing opened.
  QApplication::processEvents();
  EXPECT_EQ(tracesIn(dir), QStringList({"classes_graph_nsys.sqlite"}));
  EXPECT_EQ(loaded.count(), 0);
  EXPECT_TRUE(errors.isEmpty()) << errors.join(' ').toStdString();
}

TEST(NcuImportMenu, AReportWithNoKernelOfTheTraceIsRefusedBeforeAnyQuestion) {
  QTemporaryDir dir;
  QStringList errors, titles;
  auto window = windowWith(dir, kTrace, errors, &titles);
  QuestionAnswers answers;
  window->importNcuReport(QString::fromStdString(kFixtures + "/ncu/loader2_ncu_metrics.csv"));
  EXPECT_TRUE(answers.questions.isEmpty()) << answers.questions.join(" / ").toStdString();
  ASSERT_EQ(errors.size(), 1);
  EXPECT_EQ(titles, QStringList({"Cannot Import ncu Metrics"}));  // the trace is open; the import was refused
  EXPECT_TRUE(errors.front().startsWith("None of the 40 kernels")) << errors.front().toStdString();
  EXPECT_EQ(errors.front().count('\n'), 0) << errors.front().toStdString();
  EXPECT_EQ(tracesIn(dir), QStringList({"transpose.sqlite"}));
}

TEST(NcuImportMenu, AFullMatchSaysSoAndGoesIntoTheFileWhenAskedTo) {
  QTemporaryDir dir;
  QStringList errors;
  auto window = windowWith(dir, kTrace, errors);
  QSignalSpy loaded(window.get(), &MainWindow::traceLoaded);
  QSignalSpy panes(window.get(), &MainWindow::panesFilled);
  QSignalSpy checked(window->integrity(), &IntegrityChecker::checked);
  QuestionAnswers answers(QStringLiteral("Into transpose.sqlite"));
  window->importNcuReport(QString::fromStdString(kReport));
  ASSERT_EQ(answers.questions.size(), 1) << errors.join(' ').toStdString();
  EXPECT_TRUE(answers.questions.front().contains("6 of 6 profiled kernel launches"))
      << answers.questions.front().toStdString();
  EXPECT_EQ(answers.icons.front(), QMessageBox::Question);
  EXPECT_FALSE(answers.cancelIsDefault.front());
  EXPECT_EQ(answers.fileDialogs, 0);
  ASSERT_TRUE(loaded.wait(kTimeoutMs)) << errors.join(' ').toStdString();
  EXPECT_TRUE(errors.isEmpty()) << errors.join(' ').toStdString();
  EXPECT_EQ(tracesIn(dir), QStringList({"transpose.sqlite"}));
  EXPECT_EQ(window->rooflineView()->points().size(), 3u);
  // The file rewritten under the first load's integrity check is not reported as damaged; the reload's own
  // check finds it sound.
  ASSERT_TRUE(panes.count() > 0 || panes.wait(kTimeoutMs));
  QTRY_VERIFY_WITH_TIMEOUT(!window->integrity()->isChecking(), kTimeoutMs);
  for (const auto& report : checked) EXPECT_EQ(report.at(1).toString(), QString());
  EXPECT_TRUE(errors.isEmpty()) << errors.join(' ').toStdString();
  EXPECT_EQ(answers.questions.size(), 1) << answers.questions.join(" / ").toStdString();
}

}  // namespace
}  // namespace gpuscope::ui
