// The window shell: loading through the window, the summary it shows, cancel, errors, drag and drop.
#include "ui/main_window/main_window.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>

#include "core/model/trace.h"
#include "core/model/trace_summary.h"
#include "shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/analysis/analysis_panel.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/compare_window.h"
#include "ui/loading/background_trace_loader.h"
#include "ui/loading/load_progress_widget.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/recent_files.h"
#include "ui/main_window/welcome_view.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"
#include "ui/summary/trace_summary_view.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"

namespace gpuscope::ui {
namespace {

using test::fixturePath;
using test::readFixtureFacts;

using test::kTimeoutMs;

QString grouped(int64_t value) { return QLocale().toString(static_cast<qlonglong>(value)); }

// Delivers what finished workers posted to the GUI thread (and what that posts in turn), without a sleep.
void deliverPostedEvents() {
  for (int round = 0; round < 3; ++round) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
  }
}

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    window_ = std::make_unique<MainWindow>(
        std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
    window_->setErrorReporter([this](const QString&, const QString& message) { errors_ << message; });
    window_->resize(1200, 800);
    window_->show();
  }

  // Opens PATH through the window's own load path and waits for it to land.
  void load(const QString& path) {
    QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    window_->openFile(path);
    ASSERT_TRUE(loaded.wait(kTimeoutMs)) << "no traceLoaded; errors: " << errors_.join(' ').toStdString();
    ASSERT_EQ(failed.count(), 0);
  }

  QString writeFile(const QString& name, const QByteArray& contents) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(contents);
    return path;
  }

  // Sends a drag-enter then, when accepted, a drop carrying URLS to TARGET; returns whether accepted.
  bool dragAndDrop(QWidget* target, const QList<QUrl>& urls) {
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint point(target->width() / 2, target->height() / 2);
    QDragEnterEvent enter(point, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(point), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  QStringList errors_;
};

QTreeWidgetItem* topLevelWithId(QTreeWidget* tree, int column, qlonglong id) {
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree->topLevelItem(i);
    if (item->data(column, Qt::UserRole).toLongLong() == id) return item;
  }
  return nullptr;
}

TEST_F(MainWindowTest, StartsWithAnEmptyStateThatSaysHowToOpenAFile) {
  EXPECT_FALSE(window_->showsTrace());
  EXPECT_EQ(window_->windowTitle(), QStringLiteral("gpuscope"));
  EXPECT_TRUE(window_->welcomeView()->isVisible());
  QStringList texts;
  for (const QLabel* label : window_->welcomeView()->findChildren<QLabel*>()) texts << label->text();
  const QString all = texts.join(' ');
  EXPECT_TRUE(all.contains(QStringLiteral("Ctrl+O"))) << all.toStdString();
  EXPECT_TRUE(all.contains(QStringLiteral("Drop"), Qt::CaseInsensitive)) << all.toStdString();
  EXPECT_TRUE(window_->welcomeView()->openButton()->isEnabled());
}

TEST_F(MainWindowTest, LoadingTransposeShowsItsRealCountsInTheSummaryTab) {
  const QString path = fixturePath("nsys/transpose.sqlite");
  const test::FixtureFacts facts = readFixtureFacts(path);
  ASSERT_GT(facts.kernels, 0);

  load(path);

  EXPECT_TRUE(window_->showsTrace());
  EXPECT_TRUE(window_->windowTitle().startsWith(QStringLiteral("gpuscope — transpose.sqlite (")));
  EXPECT_EQ(window_->currentFile(), QFileInfo(path).absoluteFilePath());
  ASSERT_TRUE(window_->session()->hasTrace());
  const int summaryTab = window_->views()->indexOf(window_->summaryView());
  ASSERT_GE(summaryTab, 0);
  EXPECT_EQ(window_->views()->tabText(summaryTab), QStringLiteral("Summary"));

  TraceSummaryView* summary = window_->summaryView();
  EXPECT_EQ(summary->valueText("kernels"), grouped(facts.kernels));
  EXPECT_EQ(summary->valueText("memcpys"), grouped(facts.memcpys));
  EXPECT_EQ(summary->valueText("memsets"), grouped(facts.memsets));
  EXPECT_EQ(summary->valueText("syncs"), grouped(facts.syncs));
  EXPECT_EQ(summary->valueText("cudaApi"), grouped(facts.cudaApi));
  EXPECT_EQ(summary->valueText("nvtx"), grouped(facts.nvtx));
  EXPECT_EQ(summary->valueText("osrt"), grouped(facts.osrt));
  EXPECT_EQ(summary->valueText("total"),
            grouped(facts.kernels + facts.memcpys + facts.memsets + facts.cudaApi + facts.nvtx + facts.osrt));
  const Trace& trace = *window_->session()->trace();
  EXPECT_EQ(summary->valueText("duration"),
            QString::fromStdString(formatDuration(trace.endTime() - trace.startTime())));

  // The GPU table: one column per device, the fixture's name and SM count.
  QTreeWidget* devices = summary->deviceTable();
  ASSERT_EQ(devices->columnCount(), 2);
  EXPECT_EQ(devices->topLevelItem(0)->text(1), QString::fromStdString(facts.gpuName));
  EXPECT_EQ(devices->findItems(QStringLiteral("SMs"), Qt::MatchExactly).value(0)->text(1), grouped(facts.smCount));

  // The process that called CUDA is listed by pid and name, with its calls counted.
  ASSERT_FALSE(facts.cudaProcesses.empty());
  for (const auto& process : facts.cudaProcesses) {
    QTreeWidgetItem* item = topLevelWithId(summary->processTree(), 1, process.pid);
    ASSERT_NE(item, nullptr) << "pid " << process.pid;
    EXPECT_TRUE(item->text(0).contains(QFileInfo(QString::fromStdString(process.name)).fileName()))
        << item->text(0).toStdString() << " vs " << process.name;
    EXPECT_EQ(item->data(2, Qt::UserRole).toLongLong(), process.cudaApi);
    EXPECT_GT(item->childCount(), 0);
  }

  // Every kernel and memory operation sits on some stream of the GPU tree.
  qlonglong kernels = 0;
  qlonglong memoryOps = 0;
  QTreeWidget* streams = summary->streamTree();
  for (int i = 0; i < streams->topLevelItemCount(); ++i) {
    kernels += streams->topLevelItem(i)->data(3, Qt::UserRole).toLongLong();
    memoryOps += streams->topLevelItem(i)->data(4, Qt::UserRole).toLongLong();
  }
  EXPECT_EQ(kernels, facts.kernels);
  EXPECT_EQ(memoryOps, facts.memcpys + facts.memsets);
}

// A large trace's kernel table fills on a worker after the load: panesFilled waits for it (--screenshot does).
TEST_F(MainWindowTest, PanesFilledComesOnceTheKernelTableHoldsItsRows) {
  KernelTableModel* kernels = window_->analysisView()->kernels()->instanceModel();
  kernels->setInlineLimit(0);  // as for millions of kernels
  QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
  QSignalSpy filled(window_.get(), &MainWindow::panesFilled);
  int rowsWhenFilled = -1;
  QObject::connect(window_.get(), &MainWindow::panesFilled, window_.get(),
                   [&] { rowsWhenFilled = window_->analysisView()->kernels()->view()->model()->rowCount(); });
  window_->openFile(fixturePath("nsys/loader2.sqlite"));
  ASSERT_TRUE(filled.wait(kTimeoutMs));
  EXPECT_EQ(loaded.count(), 1);
  EXPECT_EQ(filled.count(), 1);
  EXPECT_EQ(rowsWhenFilled, static_cast<int>(window_->session()->trace()->counts().kernels));
  EXPECT_GT(rowsWhenFilled, 0);
}

TEST_F(MainWindowTest, MultiProcessTraceListsEveryProcessAndThreadOfTheModel) {
  load(fixturePath("nsys/loader2.sqlite"));
  const Trace& trace = *window_->session()->trace();
  QTreeWidget* tree = window_->summaryView()->processTree();
  ASSERT_EQ(tree->topLevelItemCount(), static_cast<int>(trace.processes().size()));
  qlonglong cudaApi = 0;
  qlonglong osrt = 0;
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    const ProcessInfo& process = trace.processes()[static_cast<size_t>(i)];
    QTreeWidgetItem* item = tree->topLevelItem(i);
    EXPECT_EQ(item->data(1, Qt::UserRole).toLongLong(), process.pid);
    ASSERT_EQ(item->childCount(), static_cast<int>(process.threads.size()));
    for (int t = 0; t < item->childCount(); ++t) {
      EXPECT_EQ(item->child(t)->data(1, Qt::UserRole).toLongLong(), process.threads[static_cast<size_t>(t)].tid);
    }
    cudaApi += item->data(2, Qt::UserRole).toLongLong();
    osrt += item->data(4, Qt::UserRole).toLongLong();
  }
  EXPECT_EQ(cudaApi, static_cast<qlonglong>(trace.counts().cudaApi));
  EXPECT_EQ(osrt, static_cast<qlonglong>(trace.counts().osrt));
  EXPECT_EQ(window_->summaryView()->valueText("processes"), grouped(static_cast<int64_t>(trace.processes().size())));
}

TEST_F(MainWindowTest, ProgressStripShowsWhileLoadingAndHidesAfter) {
  QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
  window_->openFile(fixturePath("nsys/transpose.sqlite"));
  EXPECT_TRUE(window_->loader()->isLoading());
  EXPECT_FALSE(window_->progressWidget()->isHidden());
  EXPECT_FALSE(window_->welcomeView()->openButton()->isEnabled());
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_TRUE(window_->progressWidget()->isHidden());
  EXPECT_FALSE(window_->loader()->isLoading());
}

TEST_F(MainWindowTest, CancelDropsTheResult) {
  QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
  QSignalSpy cancelled(window_.get(), &MainWindow::loadCancelled);
  window_->openFile(fixturePath("nsys/transpose.sqlite"));
  window_->progressWidget()->cancelButton()->click();
  EXPECT_EQ(cancelled.count(), 1);
  // Let the worker finish and deliver whatever it posted: it must be dropped.
  window_->loader()->waitForWorkers();
  deliverPostedEvents();
  EXPECT_EQ(loaded.count(), 0);
  EXPECT_FALSE(window_->session()->hasTrace());
  EXPECT_FALSE(window_->showsTrace());
  EXPECT_TRUE(window_->progressWidget()->isHidden());
  EXPECT_TRUE(window_->recentFiles()->files().isEmpty());
  EXPECT_TRUE(errors_.isEmpty());
}

TEST_F(MainWindowTest, ASupersededLoadNeverReachesTheSession) {
  QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
  QSignalSpy traceChanged(window_->session(), &TraceSession::traceChanged);
  window_->openFile(fixturePath("nsys/loader2.sqlite"));
  window_->openFile(fixturePath("nsys/transpose.sqlite"));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  window_->loader()->waitForWorkers();
  deliverPostedEvents();
  ASSERT_EQ(loaded.count(), 1);
  EXPECT_TRUE(loaded.at(0).at(0).toString().endsWith(QStringLiteral("transpose.sqlite")));
  EXPECT_EQ(traceChanged.count(), 1);
  EXPECT_TRUE(QString::fromStdString(window_->session()->trace()->path()).endsWith(QStringLiteral("transpose.sqlite")));
}

TEST_F(MainWindowTest, ABadFileTakesTheErrorPathAndTheWindowStaysUsable) {
  const QString bad = writeFile(QStringLiteral("garbage.sqlite"), QByteArray("this is not a trace\n").repeated(64));
  QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
  window_->openFile(bad);
  ASSERT_TRUE(failed.wait(kTimeoutMs));
  ASSERT_EQ(errors_.size(), 1);
  EXPECT_FALSE(errors_.front().isEmpty());
  EXPECT_FALSE(errors_.front().contains(QLatin1Char('\n')));
  EXPECT_EQ(failed.at(0).at(1).toString(), errors_.front());
  EXPECT_FALSE(window_->session()->hasTrace());
  EXPECT_FALSE(window_->showsTrace());
  EXPECT_FALSE(window_->recentFiles()->files().contains(bad));
  EXPECT_TRUE(window_->progressWidget()->isHidden());

  load(fixturePath("nsys/transpose.sqlite"));
  EXPECT_TRUE(window_->showsTrace());
}

TEST_F(MainWindowTest, AFailedLoadKeepsTheTraceThatIsShown) {
  load(fixturePath("nsys/transpose.sqlite"));
  const std::shared_ptr<const Trace> shown = window_->session()->trace();
  QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
  window_->openFile(dir_.filePath(QStringLiteral("does-not-exist.sqlite")));
  ASSERT_TRUE(failed.wait(kTimeoutMs));
  EXPECT_EQ(errors_.size(), 1);
  EXPECT_EQ(window_->session()->trace(), shown);
  EXPECT_TRUE(window_->windowTitle().startsWith(QStringLiteral("gpuscope — transpose.sqlite (")));
}

TEST_F(MainWindowTest, DroppingAFileOpensIt) {
  const QString path = fixturePath("nsys/transpose.sqlite");
  QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
  // Dropped on the empty state, the event reaches the window through its parents.
  ASSERT_TRUE(dragAndDrop(window_->welcomeView(), {QUrl::fromLocalFile(path)}));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_EQ(loaded.at(0).at(0).toString(), QFileInfo(path).absoluteFilePath());

  // And on the summary of an open trace, another file replaces it.
  const QString other = fixturePath("nsys/loader2.sqlite");
  ASSERT_TRUE(dragAndDrop(window_->summaryView()->processTree()->viewport(), {QUrl::fromLocalFile(other)}));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_TRUE(window_->windowTitle().startsWith(QStringLiteral("gpuscope — loader2.sqlite (")));
}

TEST_F(MainWindowTest, DragsOfWhatCannotBeOpenedAreRefused) {
  const QString path = fixturePath("nsys/transpose.sqlite");
  EXPECT_FALSE(dragAndDrop(window_.get(), {QUrl(QStringLiteral("https://example.com/run.sqlite"))}));
  EXPECT_FALSE(dragAndDrop(window_.get(), {QUrl::fromLocalFile(dir_.path())}));
  EXPECT_FALSE(dragAndDrop(window_.get(), {QUrl::fromLocalFile(path), QUrl::fromLocalFile(path)}));
  EXPECT_FALSE(dragAndDrop(window_.get(), {}));
  EXPECT_FALSE(window_->loader()->isLoading());
}

TEST_F(MainWindowTest, ReloadAndCloseTrace) {
  const QString path = fixturePath("nsys/transpose.sqlite");
  load(path);
  const std::shared_ptr<const Trace> first = window_->session()->trace();
  QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
  window_->reload();
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_NE(window_->session()->trace(), first);

  window_->closeTrace();
  EXPECT_FALSE(window_->session()->hasTrace());
  EXPECT_FALSE(window_->showsTrace());
  EXPECT_EQ(window_->windowTitle(), QStringLiteral("gpuscope"));
}

TEST_F(MainWindowTest, TabsAreTimelineSummaryRooflineAndAnalysis) {
  load(fixturePath("nsys/transpose.sqlite"));
  QTabWidget* tabs = window_->views();
  ASSERT_EQ(tabs->count(), 4);
  EXPECT_EQ(tabs->indexOf(window_->analysisView()), 0);
  EXPECT_EQ(tabs->tabText(tabs->indexOf(window_->rooflineView())), QStringLiteral("Roofline"));
  EXPECT_EQ(tabs->tabText(tabs->indexOf(window_->analysisPanel())), QStringLiteral("Analysis"));
  // The transpose export has no kernel metrics: the roofline says how to get them.
  EXPECT_TRUE(window_->rooflineView()->message().contains(QStringLiteral("import-ncu")))
      << window_->rooflineView()->message().toStdString();
}

TEST_F(MainWindowTest, CompareWithOpensTheCompareWindowOfBothRuns) {
  load(fixturePath("nsys/transpose.sqlite"));
  QWidget* opened = window_->compareWith(fixturePath("nsys/loader2.sqlite"));
  ASSERT_NE(opened, nullptr);
  auto* window = qobject_cast<CompareWindow*>(opened);
  ASSERT_NE(window, nullptr);
  EXPECT_TRUE(window->isWindow());
  EXPECT_TRUE(window->windowTitle().contains(QStringLiteral("transpose.sqlite")));
  EXPECT_TRUE(window->windowTitle().contains(QStringLiteral("loader2.sqlite")));
  // Both runs load in the background: the window is up before they are in.
  EXPECT_TRUE(window->isLoading());
  EXPECT_EQ(window->view(), nullptr);
  QSignalSpy loaded(window, &CompareWindow::loaded);
  ASSERT_TRUE(loaded.wait(kTimeoutMs)) << errors_.join(' ').toStdString();
  CompareView* compare = window->view();
  ASSERT_NE(compare, nullptr);
  // Its own traces: A is the file shown here, B the other.
  EXPECT_EQ(compare->sessionA()->trace()->counts().total(), window_->session()->trace()->counts().total());
  EXPECT_NE(compare->sessionB()->trace()->counts().total(), compare->sessionA()->trace()->counts().total());
  EXPECT_TRUE(errors_.isEmpty());
  delete window;
}

TEST_F(MainWindowTest, CompareWithAFileThatIsNotATraceReportsOneError) {
  load(fixturePath("nsys/transpose.sqlite"));
  const QString bad = writeFile(QStringLiteral("junk.sqlite"), QByteArray("junk\n").repeated(100));
  QPointer<QWidget> opened = window_->compareWith(bad);
  ASSERT_FALSE(opened.isNull());
  QSignalSpy failed(opened.data(), SIGNAL(failed(QString)));
  ASSERT_TRUE(failed.wait(kTimeoutMs));
  ASSERT_EQ(errors_.size(), 1);
  EXPECT_FALSE(errors_.front().contains(QLatin1Char('\n')));
  EXPECT_TRUE(window_->session()->hasTrace());
  // The window closed itself (and deletes itself once the event loop gets to it).
  EXPECT_TRUE(opened.isNull() || !opened->isVisible());
}

TEST_F(MainWindowTest, CopyAsTextPutsTheInfoTextOnTheClipboard) {
  load(fixturePath("nsys/transpose.sqlite"));
  QPushButton* copy = nullptr;
  for (QPushButton* button : window_->summaryView()->findChildren<QPushButton*>()) {
    if (button->text().contains(QStringLiteral("Copy"))) copy = button;
  }
  ASSERT_NE(copy, nullptr);
  copy->click();
  EXPECT_EQ(QApplication::clipboard()->text(), QString::fromStdString(formatSummaryText(*window_->session()->trace())));
}

}  // namespace
}  // namespace gpuscope::ui
