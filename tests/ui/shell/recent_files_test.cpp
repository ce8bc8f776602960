// Recent files: order, the limit of ten, pruning of missing files, and the menu built from them.
#include "ui/main_window/recent_files.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "core/open/temp_trace_file.h"
#include "shell_fixtures.h"
#include "ui/main_window/main_window.h"
#include "ui/main_window/welcome_view.h"

namespace gpuscope::ui {
namespace {

class RecentFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.isValid()); }

  QString settingsPath() const { return dir_.filePath(QStringLiteral("settings.ini")); }

  QString touch(const QString& name) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    return QFileInfo(path).canonicalFilePath();
  }

  QTemporaryDir dir_;
};

TEST_F(RecentFilesTest, NewestFirstAndReopeningMovesToTheFront) {
  QSettings settings(settingsPath(), QSettings::IniFormat);
  RecentFiles recent(&settings);
  const QString a = touch(QStringLiteral("a.sqlite"));
  const QString b = touch(QStringLiteral("b.sqlite"));
  const QString c = touch(QStringLiteral("c.sqlite"));
  recent.add(a);
  recent.add(b);
  recent.add(c);
  EXPECT_EQ(recent.files(), (QStringList{c, b, a}));
  recent.add(a);
  EXPECT_EQ(recent.files(), (QStringList{a, c, b}));
  // A relative or non-canonical spelling of the same file is the same entry.
  recent.add(dir_.filePath(QStringLiteral("./b.sqlite")));
  EXPECT_EQ(recent.files(), (QStringList{b, a, c}));
}

TEST_F(RecentFilesTest, KeepsAtMostTen) {
  QSettings settings(settingsPath(), QSettings::IniFormat);
  RecentFiles recent(&settings);
  QStringList added;
  for (int i = 0; i < 13; ++i) {
    added << touch(QStringLiteral("run%1.sqlite").arg(i));
    recent.add(added.back());
  }
  const QStringList files = recent.files();
  ASSERT_EQ(files.size(), RecentFiles::kMaximum);
  EXPECT_EQ(files.front(), added.back());
  EXPECT_EQ(files.back(), added.at(3));
  EXPECT_FALSE(files.contains(added.at(2)));
}

TEST_F(RecentFilesTest, MissingFilesArePrunedFromTheSettings) {
  const QString a = touch(QStringLiteral("a.sqlite"));
  const QString b = touch(QStringLiteral("b.sqlite"));
  {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    RecentFiles recent(&settings);
    recent.add(a);
    recent.add(b);
  }
  ASSERT_TRUE(QFile::remove(a));
  QSettings settings(settingsPath(), QSettings::IniFormat);
  RecentFiles recent(&settings);
  QSignalSpy changed(&recent, &RecentFiles::changed);
  EXPECT_EQ(recent.files(), QStringList{b});
  EXPECT_EQ(changed.count(), 1);
  QSettings reread(settingsPath(), QSettings::IniFormat);
  EXPECT_EQ(reread.value(QStringLiteral("recentFiles")).toStringList(), QStringList{b});
}

TEST_F(RecentFilesTest, ClearEmptiesTheList) {
  QSettings settings(settingsPath(), QSettings::IniFormat);
  RecentFiles recent(&settings);
  recent.add(touch(QStringLiteral("a.sqlite")));
  recent.clear();
  EXPECT_TRUE(recent.files().isEmpty());
}

TEST_F(RecentFilesTest, TheWindowRecordsLoadsAndOpensFromItsMenu) {
  const QString fixture = test::fixturePath("nsys/transpose.sqlite");
  const QString missing = touch(QStringLiteral("gone.sqlite"));
  {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    settings.setValue(QStringLiteral("recentFiles"), QStringList{missing});
  }
  ASSERT_TRUE(QFile::remove(missing));

  MainWindow window(std::make_unique<QSettings>(settingsPath(), QSettings::IniFormat));
  window.setErrorReporter([](const QString&, const QString& message) { ADD_FAILURE() << message.toStdString(); });
  // The missing file is gone from the menu and from the empty state's list.
  emit window.recentMenu()->aboutToShow();
  ASSERT_EQ(window.recentMenu()->actions().size(), 1);
  EXPECT_FALSE(window.recentMenu()->actions().front()->isEnabled());
  EXPECT_FALSE(window.welcomeView()->recentList()->isVisibleTo(window.welcomeView()));

  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  window.openFile(fixture);
  ASSERT_TRUE(loaded.wait(120'000));
  const QString canonical = QFileInfo(fixture).canonicalFilePath();
  EXPECT_EQ(window.recentFiles()->files(), QStringList{canonical});
  EXPECT_TRUE(window.welcomeView()->recentList()->text().contains(QStringLiteral("transpose.sqlite")));

  emit window.recentMenu()->aboutToShow();
  QAction* first = window.recentMenu()->actions().value(0);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->data().toString(), canonical);
  EXPECT_TRUE(first->text().contains(QStringLiteral("transpose.sqlite")));
  window.closeTrace();
  first->trigger();
  ASSERT_TRUE(loaded.wait(120'000));
  EXPECT_TRUE(window.showsTrace());
}

// Issue 40, point 9: the ranks `gpuscope-ui --ranks` merges into a temporary file (TempTraceFile) are opened by a name
// that is gone once the window closes: never a recent file, whether added or found in the settings.
TEST_F(RecentFilesTest, TemporaryTraceFilesAreNeverListed) {
  TempTraceFile merged("rank0+rank1.sqlite");
  {
    QFile file(QString::fromStdString(merged.path()));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  }
  const QString temporary = QFileInfo(QString::fromStdString(merged.path())).canonicalFilePath();
  ASSERT_FALSE(temporary.isEmpty());
  const QString kept = touch(QStringLiteral("kept.sqlite"));
  {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    settings.setValue(QStringLiteral("recentFiles"), QStringList{temporary, kept});
  }
  QSettings settings(settingsPath(), QSettings::IniFormat);
  RecentFiles recent(&settings);
  EXPECT_EQ(recent.files(), QStringList{kept});
  recent.add(temporary);
  EXPECT_EQ(recent.files(), QStringList{kept});
  // A folder of that name elsewhere is the user's own.
  ASSERT_TRUE(QDir(dir_.path()).mkdir(QStringLiteral("gpuscope-abc123")));
  const QString own = touch(QStringLiteral("gpuscope-abc123/run.sqlite"));
  recent.add(own);
  EXPECT_EQ(recent.files(), (QStringList{own, kept}));
}

// The welcome page at 1280x720 and 1920x1080 shows every one of the ten recent files whole, none clipped.
TEST_F(RecentFilesTest, TheWelcomePageShowsEveryRecentFile) {
  QStringList files;
  for (int i = 0; i < RecentFiles::kMaximum; ++i)
    files << touch(QStringLiteral("training_run_%1_with_a_long_descriptive_name.sqlite").arg(i));
  {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    QStringList newestFirst(files.rbegin(), files.rend());
    settings.setValue(QStringLiteral("recentFiles"), newestFirst);
  }
  MainWindow window(std::make_unique<QSettings>(settingsPath(), QSettings::IniFormat));
  window.show();
  for (QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
    window.resize(size);
    QApplication::processEvents();
    WelcomeView* welcome = window.welcomeView();
    QLabel* list = welcome->recentList();
    ASSERT_TRUE(list->isVisible());
    for (const QString& file : files) EXPECT_TRUE(list->text().contains(QFileInfo(file).fileName()));
    const QRect shown(list->mapTo(welcome, QPoint(0, 0)), list->size());
    EXPECT_GE(list->height(), list->sizeHint().height()) << size.width() << "x" << size.height();
    EXPECT_GE(list->width(), list->sizeHint().width()) << size.width() << "x" << size.height();
    EXPECT_TRUE(welcome->rect().contains(shown)) << size.width() << "x" << size.height() << ": the list at "
                                                 << shown.y() << ".." << shown.bottom() << " of " << welcome->height();
  }
}

TEST_F(RecentFilesTest, BatchModeReadsTheSettingsButNeverWritesThem) {
  const QString missing = touch(QStringLiteral("gone.sqlite"));
  {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    settings.setValue(QStringLiteral("recentFiles"), QStringList{missing});
  }
  ASSERT_TRUE(QFile::remove(missing));

  MainWindow window(std::make_unique<QSettings>(settingsPath(), QSettings::IniFormat), MainWindow::Mode::Batch);
  int reported = 0;
  window.setErrorReporter([&reported](const QString&, const QString&) { ++reported; });
  EXPECT_TRUE(window.recentFiles()->files().isEmpty());  // pruned in memory

  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  window.openFile(test::fixturePath("nsys/transpose.sqlite"));
  ASSERT_TRUE(loaded.wait(120'000));
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.openFile(dir_.filePath(QStringLiteral("missing-too.sqlite")));
  ASSERT_TRUE(failed.wait(120'000));
  EXPECT_EQ(reported, 0) << "batch mode shows no dialog";
  window.close();

  QSettings reread(settingsPath(), QSettings::IniFormat);
  EXPECT_EQ(reread.allKeys(), QStringList{QStringLiteral("recentFiles")});
  EXPECT_EQ(reread.value(QStringLiteral("recentFiles")).toStringList(), QStringList{missing});
}

}  // namespace
}  // namespace gpuscope::ui
