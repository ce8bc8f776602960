// Issue 40, point 5: `gpuscope-ui --ranks A bad` and `gpuscope-ui A bad` in a window show the error dialog that the
// menus show (the window's error reporter), on the welcome page of a window that stays open, instead of exiting with
// a line on stderr only.
#include "ui/main_window/command_line_failure.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QPointer>
#include <QSettings>
#include <QTemporaryDir>

#include "ui/main_window/main_window.h"

namespace gpuscope::ui {
namespace {

TEST(CommandLineFailure, TheWelcomePageSaysWhyInTheErrorReporter) {
  QTemporaryDir dir;
  const QString sentence = QStringLiteral("bad.sqlite is not a trace: it is not an SQLite database.");
  QPointer<MainWindow> window = showCommandLineFailure(
      sentence, QSize(1280, 720), true,
      std::make_unique<QSettings>(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
  ASSERT_TRUE(window);
  QStringList titles, messages;
  window->setErrorReporter([&](const QString& title, const QString& message) {
    titles << title;
    messages << message;
  });
  EXPECT_TRUE(messages.isEmpty()) << "reported once the window is up, not before";
  QApplication::processEvents();
  EXPECT_EQ(messages, QStringList{sentence});
  EXPECT_EQ(titles, QStringList{QStringLiteral("Cannot Open Trace")});
  EXPECT_TRUE(window->isVisible());
  EXPECT_FALSE(window->showsTrace()) << "the welcome page";
  EXPECT_EQ(window->size(), QSize(1280, 720));
  EXPECT_EQ(window->mode(), MainWindow::Mode::Interactive);
  window->close();
  QApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  EXPECT_FALSE(window) << "deleted when closed";
}

}  // namespace
}  // namespace gpuscope::ui
