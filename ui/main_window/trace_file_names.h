#pragma once
// How the window names trace files: the Open and Compare dialogs' filter of openable names (from core/open's
// registry of formats), and the window title that tells two recordings of one name apart.
#include <QString>

namespace gpuscope::ui {

// "Trace files (*.sqlite … *.json.gz);;SQLite trace (…);;PyTorch profiler trace (…);;All files (*)": every
// format the door opens, then each alone, then every file (the door goes by content, not by name).
QString traceFileFilter();

// "gpuscope — gs.sqlite (~/runs/a)": the file's name and its folder, "gpuscope" alone for no file. WHERE, when
// given, stands in for the folder: a file the viewer made in a temporary folder says what it is instead.
QString traceWindowTitle(const QString& path, const QString& where = QString());

}  // namespace gpuscope::ui
