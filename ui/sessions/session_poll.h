#pragma once
// The blocking half of the Sessions window: listing this user's sessions and talking to one of them over
// its control socket. Both block on sockets, so they run on a worker thread (SessionPoller,
// SessionCommandJob), never on the GUI thread; neither throws.
//
// ui/ reaches collector/ only here and through the types of collector/control/control_protocol.h: the
// control channel is the collector's client API, Qt-free and free of everything else the collector holds.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "collector/control/control_protocol.h"

namespace gpuscope::ui {

// One session as one refresh found it: its status, or the sentence saying why it gave none.
struct SessionSnapshot {
  std::string name;
  std::string socketPath;
  std::optional<control::SessionStatus> status;
  std::string error;  // one sentence, when status is nullopt
};

// Every session of this user at one moment.
struct SessionsSnapshot {
  std::vector<SessionSnapshot> sessions;  // sorted by name
  std::string problem;                    // why the sessions could not be listed at all; empty when they could
};

// Asks each live session for its status, waiting at most STATUS_TIMEOUT for each. A session that goes away
// between being listed and answering is left out; one that answers with an error, or not in time, is kept
// with its error.
SessionsSnapshot pollSessions(std::chrono::milliseconds statusTimeout);

// Sends REQUEST to the session at SOCKET_PATH and returns its reply; a session that cannot be reached gives
// a reply that is not ok, with the sentence that says why.
control::Reply askSession(const std::string& socketPath, const control::Request& request);

}  // namespace gpuscope::ui
