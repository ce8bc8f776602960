// Issue 30, points 9a and 9c: the Open dialog offers every file the door opens (.json.gz included), and the window
// title tells apart two recordings of one name in two folders.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <functional>

#include "core/open/trace_formats.h"
#include "shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/main_window/main_window.h"
#include "ui/main_window/trace_file_names.h"

namespace gpuscope::ui {
namespace {

using test::fixturePath;

using test::kTimeoutMs;

std::unique_ptr<MainWindow> makeWindow(const QTemporaryDir& dir) {
  auto window = std::make_unique<MainWindow>(
      std::make_unique<QSettings>(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
  window->setErrorReporter([](const QString&, const QString& message) { ADD_FAILURE() << message.toStdString(); });
  return window;
}

// The name filters of the file dialog that ASK opens (then cancelled), as the user sees them.
QStringList filtersOfDialog(const std::function<void()>& ask) {
  QStringList filters;
  auto* poll = new QTimer;
  int tries = 0;
  QObject::connect(poll, &QTimer::timeout, poll, [&filters, &tries, poll] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (dialog) {
      filters = dialog->nameFilters();
      dialog->reject();
    }
    if (dialog || ++tries > 200) poll->deleteLater();
  });
  poll->start(25);
  ask();
  return filters;
}

TEST(OpenDialog, OffersEveryNameTheDoorOpensPyTorchGzipIncluded) {
  QTemporaryDir dir;
  auto window = makeWindow(dir);
  QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
  const QStringList filters = filtersOfDialog([&window] { window->showOpenDialog(); });
  ASSERT_FALSE(filters.isEmpty()) << "no file dialog came up";
  const QString first = filters.front();
  EXPECT_TRUE(first.contains(QStringLiteral("*.json.gz"))) << first.toStdString();
  EXPECT_TRUE(first.contains(QStringLiteral("*.sqlite "))) << first.toStdString();
  for (const TraceFormat& format : traceFormats()) {
    ASSERT_FALSE(format.fileNames.empty()) << format.name;
    EXPECT_TRUE(first.contains(QString::fromUtf8(format.fileNames.data(), format.fileNames.size())));
  }
  EXPECT_EQ(filters.back(), QStringLiteral("All files (*)"));
  EXPECT_EQ(filters, traceFileFilter().split(QStringLiteral(";;")));
}

TEST(WindowTitle, TwoRecordingsOfOneNameInTwoFoldersHaveTwoTitles) {
  QTemporaryDir dir;
  QStringList titles;
  for (const char* folder : {"run-a", "run-b"}) {
    ASSERT_TRUE(QDir(dir.path()).mkpath(QString::fromLatin1(folder)));
    const QString path = dir.filePath(QStringLiteral("%1/gs.sqlite").arg(QString::fromLatin1(folder)));
    ASSERT_TRUE(QFile::copy(fixturePath("nsys/transpose.sqlite"), path));
    auto window = makeWindow(dir);
    QSignalSpy loaded(window.get(), &MainWindow::traceLoaded);
    window->openFile(path);
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    const QString title = window->windowTitle();
    EXPECT_TRUE(title.startsWith(QStringLiteral("gpuscope — gs.sqlite ("))) << title.toStdString();
    EXPECT_TRUE(title.contains(QDir::toNativeSeparators(QStringLiteral("/%1)").arg(QString::fromLatin1(folder)))))
        << title.toStdString();
    EXPECT_EQ(window->windowFilePath(), QFileInfo(path).absoluteFilePath());
    titles << title;
  }
  EXPECT_NE(titles[0], titles[1]);
}

// gpuscope-ui --ranks merges into a temporary folder: the title says what the file is instead of that folder,
// and only while that file is shown.
TEST(WindowTitle, AMergeOfRanksSaysSoInsteadOfItsTemporaryFolder) {
  QTemporaryDir dir;
  const QString merged = dir.filePath(QStringLiteral("rank0+rank1.sqlite"));
  ASSERT_TRUE(QFile::copy(fixturePath("nsys/transpose.sqlite"), merged));
  auto window = makeWindow(dir);
  QSignalSpy loaded(window.get(), &MainWindow::traceLoaded);
  window->openFileTitled(merged, QStringLiteral("2 ranks merged, temporary"));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_EQ(window->windowTitle(), QStringLiteral("gpuscope — rank0+rank1.sqlite (2 ranks merged, temporary)"));
  window->openFile(fixturePath("nsys/transpose.sqlite"));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_EQ(window->windowTitle(), traceWindowTitle(fixturePath("nsys/transpose.sqlite")));
  EXPECT_FALSE(window->windowTitle().contains(QStringLiteral("merged")));
}

TEST(WindowTitle, TheHomeFolderReadsAsATilde) {
  const QString home = QDir::homePath();
  if (home == QDir::rootPath()) GTEST_SKIP() << "the home folder is /";
  EXPECT_EQ(traceWindowTitle(home + QStringLiteral("/runs/gs.sqlite")),
            QDir::toNativeSeparators(QStringLiteral("gpuscope — gs.sqlite (~/runs)")));
  EXPECT_EQ(traceWindowTitle(QString()), QStringLiteral("gpuscope"));
}

}  // namespace
}  // namespace gpuscope::ui
