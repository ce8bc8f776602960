#include "collector/launch/session_control.h"

#include <filesystem>

#include "collector/transport/session_clock.h"
#include "core/error.h"

namespace gpuscope {

namespace {

// How long `stop` waits for the window's file: the CUDA flush (3 s at most) and writing the file.
constexpr int kStopWaitMs = 120'000;

}  // namespace

SessionControl::SessionControl(SessionFacts facts, transport::SessionGate& gate, WindowFiles* files,
                               FlightRecorder* flight, TraceDaemon& daemon)
    : facts_(std::move(facts)), gate_(gate), files_(files), flight_(flight), daemon_(daemon) {}

std::vector<std::string> SessionControl::writtenFiles() const {
  std::vector<std::string> paths;
  if (flight_) paths = flight_->written();
  if (files_)
    for (const WrittenWindow& window : files_->written()) paths.push_back(window.path);
  for (std::string& path : paths) {
    std::error_code error;
    path = std::filesystem::absolute(path, error).string();
  }
  return paths;
}

control::Reply SessionControl::dump() {
  if (!flight_)
    return refusal("session " + facts_.name + " keeps no flight recording: launch it with --flight-recorder");
  try {
    std::string path = flight_->dump(daemon_, "gpuscope dump", std::nullopt);
    control::Reply reply;
    reply.ok = true;
    std::error_code error;
    reply.file = std::filesystem::absolute(path, error).string();
    reply.message = "session " + facts_.name + " wrote its flight recording to " + reply.file;
    reply.status = currentStatus();
    return reply;
  } catch (const std::exception& error) {
    return refusal(error.what());
  }
}

control::Reply SessionControl::flightRefusal() const {
  return refusal("session " + facts_.name +
                 " is a flight recorder: it records all along, and gpuscope dump writes what it keeps");
}

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
  status.files = writtenFiles();
  status.flightRecorder = flight_ != nullptr;
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
  if (flight_) return flightRefusal();
  if (!facts_.startsByRequest)
    return refusal("session " + facts_.name + " records the ranges its program marks (" + facts_.triggerText +
                   "): it cannot be started by hand");
  if (transport::gateIsOpen(gate_.generation.load(std::memory_order_acquire)))
    return refusal("session " + facts_.name + " is recording already: stop it first");
  std::string path;
  try {
    if (!output.empty()) files_->setNextPath(output);
    path = files_->nextPath();
  } catch (const TraceError& error) {
    return refusal(error.what());
  }
  transport::openGate(gate_, transport::sessionClockNs());
  control::Reply reply;
  reply.ok = true;
  // Absolute: the client (another shell, the viewer) may be in another directory.
  std::error_code error;
  reply.file = std::filesystem::absolute(path, error).string();
  reply.message = "session " + facts_.name + " is recording to " + reply.file;
  reply.status = currentStatus();
  return reply;
}

control::Reply SessionControl::stop(transport::WindowEndReason reason) {
  if (flight_) return flightRefusal();
  bool cancel = reason == transport::WindowEndReason::Cancelled;
  uint64_t closedBefore = files_->closedWindows();
  if (!transport::closeGate(gate_, transport::sessionClockNs(), reason))
    return refusal("session " + facts_.name + " is not recording");
  if (files_->waitForClose(closedBefore, kStopWaitMs) == closedBefore)
    return refusal("session " + facts_.name + " did not finish its file within " + std::to_string(kStopWaitMs / 1000) +
                   " s");
  control::Reply reply;
  std::string failure = files_->lastFailure();
  if (!failure.empty()) return refusal(failure);
  reply.ok = true;
  if (cancel) {
    reply.message = "session " + facts_.name + ": the recording was thrown away";
  } else {
    std::vector<WrittenWindow> written = files_->written();
    std::error_code error;
    reply.file = written.empty() ? std::string() : std::filesystem::absolute(written.back().path, error).string();
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
      return dump();
  }
  return refusal("unknown request");
}

}  // namespace gpuscope
