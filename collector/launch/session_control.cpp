#include "collector/launch/session_control.h"

#include "collector/transport/session_clock.h"
#include "core/error.h"

namespace gpuscope {

namespace {

// How long `stop` waits for the window's file: the CUDA flush (3 s at most) and writing the file.
constexpr int kStopWaitMs = 120'000;

}  // namespace

SessionControl::SessionControl(SessionFacts facts, transport::SessionGate& gate, WindowFiles& files,
                               const TraceDaemon& daemon)
    : facts_(std::move(facts)), gate_(gate), files_(files), daemon_(daemon) {}

control::Reply SessionControl::refusal(const std::string& sentence) const {
  control::Reply reply;
  reply.ok = false;
  reply.error = sentence;
  reply.status = currentStatus();
  return reply;
}

control::SessionStatus SessionControl::currentStatus() const {
  control::SessionStatus status;
  status.name = facts_.name;
  status.program = facts_.commandLine;
  status.pid = pid_.load();
  uint64_t generation = gate_.generation.load(std::memory_order_acquire);
  bool open = transport::gateIsOpen(generation);
  bool writing = !open && daemon_.windowEvents() > 0;
  if (ended_.load()) {
    status.state = control::SessionState::Ended;
  } else if (open) {
    status.state = control::SessionState::Recording;
    status.recordingSeconds =
        static_cast<double>(transport::sessionClockNs() - gate_.openedAt.load(std::memory_order_relaxed)) / 1e9;
  } else {
    status.state = writing ? control::SessionState::Writing : control::SessionState::Launched;
  }
  status.events = daemon_.windowEvents();
  for (const WrittenWindow& window : files_.written()) status.files.push_back(window.path);
  return status;
}

control::Reply SessionControl::status() const {
  control::Reply reply;
  reply.ok = true;
  reply.status = currentStatus();
  return reply;
}

control::Reply SessionControl::start(const std::string& output) {
  if (ended_.load()) return refusal("session " + facts_.name + " has ended: its program exited");
  if (!facts_.startsByRequest)
    return refusal("session " + facts_.name + " records the ranges its program marks (" + facts_.triggerText +
                   "): it cannot be started by hand");
  if (transport::gateIsOpen(gate_.generation.load(std::memory_order_acquire)))
    return refusal("session " + facts_.name + " is recording already: stop it first");
  std::string path;
  try {
    if (!output.empty()) files_.setNextPath(output);
    path = files_.nextPath();
  } catch (const TraceError& error) {
    return refusal(error.what());
  }
  transport::openGate(gate_, transport::sessionClockNs());
  control::Reply reply;
  reply.ok = true;
  reply.message = "session " + facts_.name + " is recording to " + path;
  reply.file = path;
  reply.status = currentStatus();
  return reply;
}

control::Reply SessionControl::stop(transport::WindowEndReason reason) {
  bool cancel = reason == transport::WindowEndReason::Cancelled;
  uint64_t closedBefore = files_.closedWindows();
  if (!transport::closeGate(gate_, transport::sessionClockNs(), reason))
    return refusal("session " + facts_.name + " is not recording");
  if (files_.waitForClose(closedBefore, kStopWaitMs) == closedBefore)
    return refusal("session " + facts_.name + " did not finish its file within " + std::to_string(kStopWaitMs / 1000) +
                   " s");
  control::Reply reply;
  std::string failure = files_.lastFailure();
  if (!failure.empty()) return refusal(failure);
  reply.ok = true;
  if (cancel) {
    reply.message = "session " + facts_.name + ": the recording was thrown away";
  } else {
    std::vector<WrittenWindow> written = files_.written();
    reply.file = written.empty() ? std::string() : written.back().path;
    reply.message = "session " + facts_.name + " wrote " + reply.file;
  }
  reply.status = currentStatus();
  return reply;
}

control::Reply SessionControl::handle(const control::Request& request) {
  switch (request.verb) {
    case control::Verb::Status:
      return status();
    case control::Verb::Start:
      return start(request.output);
    case control::Verb::Stop:
      return stop(transport::WindowEndReason::Stopped);
    case control::Verb::Cancel:
      return stop(transport::WindowEndReason::Cancelled);
    case control::Verb::Dump:
      return refusal("session " + facts_.name +
                     " keeps no flight recording: gpuscope launch has no --flight-recorder in this version");
  }
  return refusal("unknown request");
}

}  // namespace gpuscope
