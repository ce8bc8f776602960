#include "tests/ui/sessions/fake_session.h"

#include <filesystem>

#include "collector/control/control_channel.h"

namespace gpuscope::ui::test {
namespace {

control::Reply refusal(const std::string& sentence) {
  control::Reply reply;
  reply.error = sentence;
  return reply;
}

control::Reply accepted(const std::string& message) {
  control::Reply reply;
  reply.ok = true;
  reply.message = message;
  return reply;
}

}  // namespace

control::SessionStatus sessionStatus(const std::string& name, control::SessionState state, const std::string& program) {
  control::SessionStatus status;
  status.name = name;
  status.program = program;
  status.pid = 4242;
  status.state = state;
  return status;
}

FakeSession::FakeSession(control::SessionStatus status, std::string filesDir)
    : status_(std::move(status)), filesDir_(std::move(filesDir)), recordingSince_(std::chrono::steady_clock::now()) {
  server_ = std::make_unique<control::ControlServer>(
      control::socketPath(status_.name), [this](const control::Request& request) { return handle(request); });
}

FakeSession::~FakeSession() { server_.reset(); }

std::vector<control::Request> FakeSession::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

control::SessionStatus FakeSession::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

void FakeSession::endRecording(const std::string& file) {
  std::lock_guard lock(mutex_);
  status_.files.push_back(file);
  status_.state = control::SessionState::Launched;
}

void FakeSession::failStatus(const std::string& error) {
  std::lock_guard lock(mutex_);
  statusError_ = error;
}

void FakeSession::copyTraceOnWrite(const std::string& trace) {
  std::lock_guard lock(mutex_);
  traceToCopy_ = trace;
}

control::Reply FakeSession::handle(const control::Request& request) {
  std::lock_guard lock(mutex_);
  requests_.push_back(request);
  const bool recording = status_.state == control::SessionState::Recording;
  switch (request.verb) {
    case control::Verb::Status:
      if (!statusError_.empty()) return refusal(statusError_);
      break;
    case control::Verb::Start:
      return recording ? refusal("session " + status_.name + " is already recording.") : start(request);
    case control::Verb::Stop:
      return recording ? writeFile(true) : refusal("session " + status_.name + " is not recording.");
    case control::Verb::Cancel:
      if (!recording) return refusal("session " + status_.name + " is not recording.");
      status_.state = control::SessionState::Launched;
      return accepted("Dropped the recording of " + status_.name + ".");
    case control::Verb::Dump:
      return status_.flightRecorder ? writeFile(false)
                                    : refusal("session " + status_.name + " has no flight recorder.");
  }
  control::Reply reply = accepted({});
  reply.status = status_;
  if (recording && clockRuns_)
    reply.status.recordingSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - recordingSince_).count();
  return reply;
}

void FakeSession::runRecordingClock() {
  std::lock_guard lock(mutex_);
  clockRuns_ = true;
  recordingSince_ = std::chrono::steady_clock::now();
}

control::Reply FakeSession::start(const control::Request& request) {
  status_.state = control::SessionState::Recording;
  status_.recordingSeconds = 0;
  clockRuns_ = true;
  recordingSince_ = std::chrono::steady_clock::now();
  nextOutput_ = request.output;
  return accepted("Recording to " + nextFileName(nextOutput_) + ".");
}

control::Reply FakeSession::writeFile(bool endsRecording) {
  const std::string file = nextFileName(endsRecording ? nextOutput_ : std::string());
  if (!traceToCopy_.empty()) {
    std::error_code ignored;
    std::filesystem::copy_file(traceToCopy_, file, std::filesystem::copy_options::overwrite_existing, ignored);
  }
  status_.files.push_back(file);
  if (endsRecording) {
    status_.state = control::SessionState::Launched;
    status_.recordingSeconds = 0;
    status_.events = 0;
  }
  nextOutput_.clear();
  control::Reply reply = accepted("Wrote " + file + ".");
  reply.file = file;
  reply.status = status_;
  return reply;
}

std::string FakeSession::nextFileName(const std::string& output) const {
  if (!output.empty()) return output;
  return filesDir_ + "/" + status_.name + "." + std::to_string(status_.files.size() + 1) + ".sqlite";
}

}  // namespace gpuscope::ui::test
