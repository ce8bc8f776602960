#pragma once
// The messages of a session's control channel (`gpuscope start|stop|cancel|dump|sessions`, the viewer's
// Sessions window): one request and one reply per connection, each one SOCK_SEQPACKET message of JSON.
// Everything a request carries is untrusted: decodeRequest refuses what is malformed, oversized or
// unknown in one sentence, and never throws.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::control {

// A message longer than this is refused without being read further.
inline constexpr size_t kMaxMessageBytes = 16 * 1024;

enum class Verb { Status, Start, Stop, Cancel, Dump };
// "status", "start", ...; and back (nullopt for an unknown word).
std::string_view verbName(Verb verb);
std::optional<Verb> verbFromName(std::string_view name);

struct Request {
  Verb verb = Verb::Status;
  std::string output;  // start's and dump's -o FILE (empty: the session's own naming)
};

// What a session is doing: launched (program running, nothing recorded), recording, writing (a file is
// being finished), ended (the program exited; the session goes away once its last file is written).
enum class SessionState { Launched, Recording, Writing, Ended };
std::string_view stateName(SessionState state);
std::optional<SessionState> stateFromName(std::string_view name);

struct SessionStatus {
  std::string name;
  std::string program;  // the command line, shell-quoted
  int64_t pid = 0;      // the program's
  SessionState state = SessionState::Launched;
  double recordingSeconds = 0;     // of the recording under way (0 when none)
  uint64_t events = 0;             // events kept so far in the recording under way (or the flight buffer)
  std::vector<std::string> files;  // the trace files written so far, oldest first
  bool flightRecorder = false;     // launched with --flight-recorder
};

struct Reply {
  bool ok = false;
  std::string error;    // one sentence, when !ok
  std::string message;  // one sentence for the user, when ok ("recording to run.2.sqlite")
  std::string file;     // the file a stop or dump wrote
  SessionStatus status;
};

std::string encode(const Request& request);
std::string encode(const Reply& reply);
// The message as a request; nullopt with PROBLEM set to one sentence when it is not one.
std::optional<Request> decodeRequest(std::string_view message, std::string& problem);
std::optional<Reply> decodeReply(std::string_view message, std::string& problem);

}  // namespace gpuscope::control
