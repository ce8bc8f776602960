#pragma once
// FakeSession: a real ControlServer that answers as a `gpuscope launch --session` would, with no program
// behind it: Start records, Stop and Dump "write" a file (its name is added to the status; nothing is written
// unless a trace to copy is given), Cancel drops the recording. It keeps every request it gets. The Sessions
// window's tests talk to these, and so does fake_sessions (fake_sessions_main.cpp) for its screenshots.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "collector/control/control_protocol.h"
#include "collector/control/control_server.h"

namespace gpuscope::ui::test {

class FakeSession {
 public:
  // Listens as STATUS.name in the control directory; its files are named FILES_DIR/<name>.<n>.sqlite.
  FakeSession(control::SessionStatus status, std::string filesDir);
  // Stops answering and removes the socket: the session is gone.
  ~FakeSession();

  std::vector<control::Request> requests() const;
  control::SessionStatus status() const;
  // A recording that ended by itself (a capture range closed, the program exited): FILE is added to the files.
  void endRecording(const std::string& file);
  // Status requests are answered "not ok" with ERROR from now on (empty: answered again).
  void failStatus(const std::string& error);
  // The recording time counts up from now, as a real session's does (otherwise it stays as given).
  void runRecordingClock();
  // Stop and Dump copy TRACE to the file they name, so that a viewer can open it.
  void copyTraceOnWrite(const std::string& trace);

 private:
  control::Reply handle(const control::Request& request);
  control::Reply start(const control::Request& request);
  control::Reply writeFile(bool endsRecording);
  std::string nextFileName(const std::string& output) const;

  mutable std::mutex mutex_;  // the server's thread answers while the test reads
  control::SessionStatus status_;
  std::string filesDir_;
  std::string nextOutput_;  // the -o of the recording under way
  std::string statusError_;
  std::string traceToCopy_;
  std::chrono::steady_clock::time_point recordingSince_;
  bool clockRuns_ = false;
  std::vector<control::Request> requests_;
  std::unique_ptr<control::ControlServer> server_;  // last: its thread stops before the state it reads goes
};

// A status as `launch` would report it.
control::SessionStatus sessionStatus(const std::string& name, control::SessionState state, const std::string& program);

}  // namespace gpuscope::ui::test
