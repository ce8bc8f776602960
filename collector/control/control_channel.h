#pragma once
// Where the sessions of this user listen, and how a client reaches them. Each session listens on its
// own Unix socket, <control directory>/<session name>.sock. The control directory belongs to the user:
// $XDG_RUNTIME_DIR/gpuscope when XDG_RUNTIME_DIR names a directory this user owns, else
// /tmp/gpuscope-<uid>; created 0700, and refused (one sentence) when it exists owned by someone else, is
// a symbolic link or is open to others. $GPUSCOPE_CONTROL_DIR replaces it (tests); the same checks apply.
// The server checks every peer with SO_PEERCRED as well (control_server.h).
#include <chrono>
#include <string>
#include <vector>

#include "collector/control/control_protocol.h"

namespace gpuscope::control {

// The control directory, created when missing. Throws TraceError with one sentence when it is unsafe.
std::string controlDirectory();
// <control directory>/<name>.sock. Throws TraceError for a name that cannot be a session's (empty, with
// '/', longer than a socket path allows).
std::string socketPath(const std::string& sessionName);

struct Endpoint {
  std::string name;
  std::string path;
};
// The live sessions whose names match PATTERN (fnmatch: `train.*` matches every rank of
// `launch --session 'train.%q{RANK}'`; empty matches all), sorted by name. Sockets nobody listens on
// (a collector that was killed) are removed.
std::vector<Endpoint> findSessions(const std::string& pattern);

// Sends REQUEST to the session listening at PATH and returns its reply. Throws TraceError with one
// sentence when the session cannot be reached, refuses the connection or does not answer within TIMEOUT.
Reply sendRequest(const std::string& path, const Request& request,
                  std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace gpuscope::control
