// Issue 42: File > Sessions… opens one Sessions window, raised again when asked again, and the file a session's
// Stop writes opens in the main window as File > Open would open it.
#include <gtest/gtest.h>

#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/ui/sessions/fake_session.h"
#include "tests/ui/sessions/temporary_control_directory.h"
#include "tests/ui/test_timeouts.h"
#include "ui/main_window/main_window.h"
#include "ui/sessions/session_table_model.h"
#include "ui/sessions/sessions_window.h"

namespace gpuscope::ui {
namespace {

using test::kTimeoutMs;

QAction* sessionsActionOf(MainWindow& window) {
  for (QAction* menu : window.menuBar()->actions()) {
    if (!menu->menu() || menu->text() != QStringLiteral("&File")) continue;
    for (QAction* action : menu->menu()->actions())
      if (action->objectName() == QStringLiteral("sessionsAction")) return action;
  }
  return nullptr;
}

TEST(SessionsMenu, OpensOneSessionsWindowAndRaisesItWhenAskedAgain) {
  test::TemporaryControlDirectory directory;
  QTemporaryDir dir;
  MainWindow window(std::make_unique<QSettings>(dir.filePath("settings.ini"), QSettings::IniFormat));
  QAction* action = sessionsActionOf(window);
  ASSERT_NE(action, nullptr) << "no Sessions… in the File menu";
  EXPECT_EQ(action->text(), QStringLiteral("&Sessions…"));
  action->trigger();
  auto windows = window.findChildren<SessionsWindow*>();
  ASSERT_EQ(windows.size(), 1);
  EXPECT_TRUE(windows.front()->isVisible());
  windows.front()->close();
  action->trigger();
  EXPECT_EQ(window.findChildren<SessionsWindow*>(), windows);
  EXPECT_TRUE(windows.front()->isVisible());
  EXPECT_TRUE(windows.front()->isWindow());
}

TEST(SessionsMenu, TheFileAStopWritesOpensInTheMainWindow) {
  test::TemporaryControlDirectory directory;
  QTemporaryDir dir;
  auto status = test::sessionStatus("bench", control::SessionState::Recording, "./transpose");
  test::FakeSession session(status, dir.path().toStdString());
  session.copyTraceOnWrite(GPUSCOPE_FIXTURES "/nsys/transpose.sqlite");
  MainWindow window(std::make_unique<QSettings>(dir.filePath("settings.ini"), QSettings::IniFormat));
  window.setErrorReporter([](const QString&, const QString& message) { ADD_FAILURE() << message.toStdString(); });
  SessionsWindow* sessions = window.showSessionsWindow();
  QSignalSpy refreshed(sessions, &SessionsWindow::refreshed);
  ASSERT_TRUE(refreshed.wait(kTimeoutMs));
  ASSERT_TRUE(sessions->selectSession("bench"));
  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  QTest::mouseClick(sessions->findChild<QPushButton*>("stopSession"), Qt::LeftButton);
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_EQ(loaded.front().front().toString(), dir.filePath("bench.1.sqlite"));
  EXPECT_EQ(window.currentFile(), dir.filePath("bench.1.sqlite"));
}

}  // namespace
}  // namespace gpuscope::ui
