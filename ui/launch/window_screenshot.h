#pragma once
// --screenshot: the window rendered offscreen to a PNG once it shows what the command line asked for.
#include <QString>
#include <optional>

#include "ui/launch/viewer_launch.h"

class QTabWidget;
class QWidget;

namespace gpuscope::ui {

// `gpuscope-ui [FILE] --screenshot OUT.png`: loads FILE (none: the empty window) into a main window that
// is never shown on screen, applies the startup view, waits for the tables (and, with --analyze or
// --tab analysis, the analysis), saves the shot and exits; 1 when FILE fails its integrity check.
int runWindowScreenshot(const ViewerRequest& request);

// Renders WIDGET, once it has laid out, to the PNG OUTPUT; the exit status.
int saveScreenshot(QWidget& widget, const QString& output);

// Brings the tab of TABS named NAME (any case) to the front; the error sentence when there is none.
std::optional<QString> showTab(QTabWidget* tabs, const QString& name);

}  // namespace gpuscope::ui
