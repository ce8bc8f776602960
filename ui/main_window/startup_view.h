#pragma once
// StartupView: the state a command line asks the window to open in (visible range, selected event),
// so that --screenshot can show a state: `--view 797.8ms:802ms --select transposeNaive#3`.
#include <QString>
#include <optional>

#include "core/model/trace_types.h"

namespace gpuscope::ui {

class TraceSession;

struct StartupView {
  // Visible range, measured from the trace start.
  std::optional<TimeNs> from;
  std::optional<TimeNs> to;
  // Select the N-th (1-based) event, in time order, whose name contains this text.
  QString selectName;
  int selectOccurrence = 1;
  // A range picked as on the ruler (it restricts the tables), measured from the trace start.
  std::optional<TimeNs> rangeFrom;
  std::optional<TimeNs> rangeTo;
};

// Parses "--view FROM:TO" and "--select NAME[#N]"; returns the error sentence, if any.
std::optional<QString> parseStartupView(const QString& view, const QString& select, StartupView& out);
// Parses "--range FROM:TO" into OUT's range; returns the error sentence, if any.
std::optional<QString> parseStartupRange(const QString& range, StartupView& out);
// Applies it to a session holding a trace; returns the error sentence when the event is not found.
std::optional<QString> applyStartupView(const StartupView& view, TraceSession& session);

}  // namespace gpuscope::ui
