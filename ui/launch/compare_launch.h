#pragma once
// `gpuscope-ui A B`: the compare window of two runs, interactive or rendered to --screenshot.
#include "ui/launch/viewer_launch.h"

namespace gpuscope::ui {

// Loads REQUEST's two files in the background, aligns them (--align), applies the startup view to A and
// shows --tab; with --screenshot, saves the window once both runs' verdicts are in and exits.
int runCompare(const ViewerRequest& request);

}  // namespace gpuscope::ui
