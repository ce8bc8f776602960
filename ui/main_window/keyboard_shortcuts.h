#pragma once
// The keys gpuscope answers to, listed in one place for Help > Keyboard Shortcuts.
#include <QString>
#include <QWidget>

namespace gpuscope::ui {

// The shortcut list as an HTML table: the key, then what it does, grouped by where it works.
QString keyboardShortcutsHtml();

// Shows the list in a non-modal window over PARENT.
void showKeyboardShortcuts(QWidget* parent);

}  // namespace gpuscope::ui
