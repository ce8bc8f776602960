#pragma once
// SessionControl: what a session answers on its control channel (collector/control): status, start, stop,
// cancel, dump. `gpuscope start` opens the session gate and `stop` closes it and waits for the window's file;
// the daemon does the rest (collector/daemon/trace_daemon.h). Runs on the control server's thread.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "collector/control/control_protocol.h"
#include "collector/daemon/trace_daemon.h"
#include "collector/launch/flight_recorder.h"
#include "collector/launch/window_files.h"
#include "collector/transport/session_gate.h"

namespace gpuscope {

struct SessionFacts {
  std::string name;
  std::string commandLine;
  bool startsByRequest = true;  // launch and record: start/stop move the gate; a capture range's program does
  std::string triggerText;      // for the refusal of start under a capture range: "--capture-range nvtx"
};

class SessionControl {
 public:
  // FILES for a session of windows, FLIGHT for a flight recorder (the other null).
  SessionControl(SessionFacts facts, transport::SessionGate& gate, WindowFiles* files, FlightRecorder* flight,
                 TraceDaemon& daemon);

  void setProgramPid(int64_t pid) { pid_.store(pid); }
  void setEnded() { ended_.store(true); }
  control::Reply handle(const control::Request& request);

 private:
  control::Reply status() const;
  control::Reply start(const std::string& output);
  control::Reply stop(transport::WindowEndReason reason);
  control::SessionStatus currentStatus() const;
  control::Reply refusal(const std::string& sentence) const;
  control::Reply dump();
  control::Reply flightRefusal() const;
  std::vector<std::string> writtenFiles() const;

  SessionFacts facts_;
  transport::SessionGate& gate_;
  WindowFiles* files_;
  FlightRecorder* flight_;
  TraceDaemon& daemon_;
  std::atomic<int64_t> pid_{0};
  std::atomic<bool> ended_{false};
};

}  // namespace gpuscope
