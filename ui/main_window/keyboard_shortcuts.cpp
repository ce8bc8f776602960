#include "ui/main_window/keyboard_shortcuts.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace gpuscope::ui {
namespace {

struct Shortcut {
  const char* keys;
  const char* action;
};

struct ShortcutGroup {
  const char* where;
  std::initializer_list<Shortcut> shortcuts;
};

QString tr(const char* text) { return QCoreApplication::translate("KeyboardShortcuts", text); }

}  // namespace

QString keyboardShortcutsHtml() {
  static const ShortcutGroup kGroups[] = {
      {QT_TRANSLATE_NOOP("KeyboardShortcuts", "Timeline"),
       {{"W / S", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Zoom in / out around the mouse")},
        {"A / D", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Pan left / right")},
        {"Wheel", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Zoom around the mouse (over the row labels: scroll)")},
        {"Shift+Wheel", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Scroll the rows")},
        {"F", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Fit the selected event or range")},
        {"Home", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Show the whole trace")},
        {"J / Space", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Jump between an API call and its GPU work")},
        {"Esc", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Clear the selection and the range")},
        {"Ctrl+F", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Find events by name")},
        {"Enter / Shift+Enter", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Next / previous match (in the find bar)")},
        {"Drag on the ruler",
         QT_TRANSLATE_NOOP("KeyboardShortcuts", "Pick a time range (the kernel table shows its kernels)")},
        {"Right-click the range on the ruler",
         QT_TRANSLATE_NOOP("KeyboardShortcuts", "Zoom to the range, or clear it")},
        {"Right-click an event",
         QT_TRANSLATE_NOOP("KeyboardShortcuts", "Zoom to, filter to this name, copy the name, show in the table")}}},
      {QT_TRANSLATE_NOOP("KeyboardShortcuts", "Tables"),
       {{"Click, Up / Down", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Show the row's event on the timeline")},
        {"Enter", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Show the current row's event on the timeline")},
        {"Right-click a kernel",
         QT_TRANSLATE_NOOP("KeyboardShortcuts", "Zoom to, filter to this name, copy the name")}}},
      {QT_TRANSLATE_NOOP("KeyboardShortcuts", "Roofline"),
       {{"+ / -", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Zoom in / out")},
        {"R", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Reset the zoom")}}},
      {QT_TRANSLATE_NOOP("KeyboardShortcuts", "Details"),
       {{"Ctrl+C", QT_TRANSLATE_NOOP("KeyboardShortcuts", "Copy the selected fields")}}},
  };
  QString html = QStringLiteral("<table cellpadding='3'>");
  for (const ShortcutGroup& group : kGroups) {
    html += QStringLiteral("<tr><th colspan='2' align='left'>%1</th></tr>").arg(tr(group.where));
    for (const Shortcut& s : group.shortcuts)
      html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(QLatin1String(s.keys), tr(s.action));
  }
  return html + QStringLiteral("</table>");
}

void showKeyboardShortcuts(QWidget* parent) {
  auto* dialog = new QDialog(parent);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Keyboard Shortcuts"));
  auto* text = new QTextBrowser(dialog);
  text->setHtml(keyboardShortcutsHtml());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(text);
  layout->addWidget(buttons);
  dialog->resize(520, 560);
  dialog->show();
}

}  // namespace gpuscope::ui
