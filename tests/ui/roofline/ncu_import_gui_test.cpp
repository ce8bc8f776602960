// File > Import ncu Metrics: the background job runs the same core import as `gpuscope import-ncu`, and the
// window opens the file that holds the metrics, whose Roofline tab then has points. Before anything is
// written the window says what the CLI says ("N of M profiled kernel launches"); its dialogs are not driven
// here (core/ncu's previewNcuImport, which they show, is tested in core).
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "core/model/trace_file.h"
#include "core/roofline/kernel_metrics_table.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/test_timeouts.h"
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
  window.setErrorReporter([&errors](const QString& message) { errors << message; });
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
  window.setErrorReporter([&errors](const QString& message) { errors << message; });
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

}  // namespace
}  // namespace gpuscope::ui
