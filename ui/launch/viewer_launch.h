#pragma once
// Starting the viewer as its command line asks: one trace or two compared, in a window, or rendered
// offscreen to a PNG (--screenshot) with the exit status saying whether that worked. The command line
// itself is parsed by app/gpuscope_ui_main.cpp; everything after the parse is here.
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

#include "ui/main_window/startup_view.h"

namespace gpuscope::ui {

// The window size for --screenshot when no --size is given, and the first size of an interactive window.
inline constexpr QSize kScreenshotSize(1600, 1000);
inline constexpr QSize kDefaultWindowSize(1400, 900);

struct ViewerRequest {
  QStringList files;                  // none (the empty window), one trace, or two to compare (A B)
  std::optional<QString> screenshot;  // --screenshot: the PNG to write before exiting; unset for a window
  std::optional<QSize> size;          // --size
  StartupView startup;                // --view, --select, --range
  QString align;                      // --align NAME[#N], with two files
  QString tab;                        // --tab NAME, with --screenshot
  bool analyze = false;               // --analyze, with --screenshot
  bool ranks = false;                 // --ranks: FILES are the ranks of one run, opened merged on one clock
  bool relative = false;              // --relative, with --ranks: each rank's own start at time 0
  bool alignCollectives = false;      // --align-collectives, with --ranks: ranks moved to line up collectives
  QString titleWhere;                 // said in the title in place of the file's folder (a merge of ranks)
};

// PREFERRED, or 90% of the primary screen's free area where that is smaller: a window's first size when no
// --size or saved geometry gives one, so that no edge opens off a 1280x720 screen.
QSize fittedWindowSize(QSize preferred);

// Shows what REQUEST asks for and runs the event loop; the exit status. Needs a QApplication.
int runViewer(const ViewerRequest& request);

// Prints "gpuscope-ui: MESSAGE" on stderr (MESSAGE is one sentence) and returns 1, the exit status.
int reportFailure(const QString& message);

}  // namespace gpuscope::ui
