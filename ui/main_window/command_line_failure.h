#pragma once
// Files named on gpuscope-ui's command line that cannot be opened: ranks that cannot be merged (--ranks A bad) or
// a run of a compare that cannot be loaded (A bad). In a window, as the menus' ways to a file do, the main window
// stays open on its welcome page and its error reporter (a dialog) says why; --screenshot still exits with the one
// line on stderr (ui/launch).
#include <QSettings>
#include <QSize>
#include <QString>
#include <memory>

namespace gpuscope::ui {

class MainWindow;

// Shows a new interactive main window (deleted when closed) on its welcome page, at SIZE or where it was last closed,
// and, once it is up, reports MESSAGE under "Cannot Open Trace" through its error reporter. SETTINGS: as MainWindow's.
MainWindow* showCommandLineFailure(const QString& message, QSize size, bool restoreGeometry = true,
                                   std::unique_ptr<QSettings> settings = nullptr);

}  // namespace gpuscope::ui
