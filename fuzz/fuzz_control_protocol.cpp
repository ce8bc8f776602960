// libFuzzer target: a control channel message of any bytes (collector/control), as a session reads a
// request and a client reads a reply. Neither decoder may throw; whatever one accepts must encode and
// decode again to the same thing, or the session would answer a request other than the one it was sent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "collector/control/control_protocol.h"

namespace {

using namespace gpuscope::control;

bool sameStatus(const SessionStatus& a, const SessionStatus& b) {
  return a.name == b.name && a.program == b.program && a.pid == b.pid && a.state == b.state &&
         a.recordingSeconds == b.recordingSeconds && a.events == b.events && a.files == b.files &&
         a.flightRecorder == b.flightRecorder;
}

void checkRequest(std::string_view message) {
  std::string problem;
  auto request = decodeRequest(message, problem);
  if (!request) {
    if (problem.empty()) std::abort();  // a refusal always says why
    return;
  }
  auto again = decodeRequest(encode(*request), problem);
  if (!again || again->verb != request->verb || again->output != request->output) std::abort();
}

void checkReply(std::string_view message) {
  std::string problem;
  auto reply = decodeReply(message, problem);
  if (!reply) {
    if (problem.empty()) std::abort();
    return;
  }
  // Text that is not UTF-8 is sent as U+FFFD (control_protocol.cpp), so only a second trip must be exact.
  auto once = decodeReply(encode(*reply), problem);
  if (!once) std::abort();
  auto twice = decodeReply(encode(*once), problem);
  if (!twice || twice->ok != once->ok || twice->error != once->error || twice->message != once->message ||
      twice->file != once->file || !sameStatus(twice->status, once->status)) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view message(reinterpret_cast<const char*>(data), size);
  checkRequest(message);
  checkReply(message);
  return 0;
}
