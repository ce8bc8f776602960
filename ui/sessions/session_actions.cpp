#include "ui/sessions/session_actions.h"

namespace gpuscope::ui {

bool SessionActions::allows(control::Verb verb) const {
  switch (verb) {
    case control::Verb::Status:
      return true;
    case control::Verb::Start:
      return start;
    case control::Verb::Stop:
      return stop;
    case control::Verb::Cancel:
      return cancel;
    case control::Verb::Dump:
      return dump;
  }
  return false;
}

SessionActions actionsFor(const std::optional<control::SessionStatus>& status) {
  SessionActions actions;
  if (!status) return actions;
  const bool launched = status->state == control::SessionState::Launched;
  const bool recording = status->state == control::SessionState::Recording;
  // A flight recorder records all along: it is dumped, never started, stopped or cancelled (its session
  // refuses those).
  const bool flight = status->flightRecorder;
  actions.start = launched && !flight;
  actions.stop = recording && !flight;
  actions.cancel = recording && !flight;
  actions.dump = flight && (launched || recording);
  return actions;
}

}  // namespace gpuscope::ui
