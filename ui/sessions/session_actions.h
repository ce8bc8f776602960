#pragma once
// Which verbs the Sessions window offers for a session, from its status: what `gpuscope start|stop|cancel|dump`
// would accept in that state, so that a button is never enabled only to be refused.
#include <optional>

#include "collector/control/control_protocol.h"

namespace gpuscope::ui {

struct SessionActions {
  bool start = false;   // launched: nothing is being recorded yet
  bool stop = false;    // recording: write what was recorded
  bool cancel = false;  // recording: drop what was recorded
  bool dump = false;    // a flight recorder that is running: write its last seconds

  bool allows(control::Verb verb) const;
};

// Nothing for a session that gave no status (it did not answer) or one that is writing or has ended.
SessionActions actionsFor(const std::optional<control::SessionStatus>& status);

}  // namespace gpuscope::ui
