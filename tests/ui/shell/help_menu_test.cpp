// Help > Keyboard Shortcuts: the menu has it, and it lists the keys the views answer to.
#include <gtest/gtest.h>

#include <QAction>
#include <QDialog>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocumentFragment>

#include "ui/main_window/keyboard_shortcuts.h"
#include "ui/main_window/main_window.h"

namespace gpuscope::ui {
namespace {

TEST(HelpMenu, KeyboardShortcutsListsTheTimelineAndTableKeys) {
  QTemporaryDir dir;
  MainWindow window(std::make_unique<QSettings>(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
  auto* action = window.findChild<QAction*>(QStringLiteral("keyboardShortcuts"));
  ASSERT_TRUE(action);
  action->trigger();
  auto* dialog = window.findChild<QDialog*>();
  ASSERT_TRUE(dialog);
  auto* text = dialog->findChild<QTextBrowser*>();
  ASSERT_TRUE(text);
  QString shown = text->toPlainText();
  for (const char* key : {"W / S", "A / D", "Ctrl+F", "J / Space", "Home", "Esc", "Up / Down"})
    EXPECT_TRUE(shown.contains(QLatin1String(key))) << key;
  EXPECT_EQ(shown, QTextDocumentFragment::fromHtml(keyboardShortcutsHtml()).toPlainText());
  dialog->close();
}

}  // namespace
}  // namespace gpuscope::ui
