#include "collector/control/control_protocol.h"

#include <array>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

namespace gpuscope::control {

namespace {

using nlohmann::json;

constexpr std::array<std::pair<Verb, std::string_view>, 5> kVerbNames{{
    {Verb::Status, "status"},
    {Verb::Start, "start"},
    {Verb::Stop, "stop"},
    {Verb::Cancel, "cancel"},
    {Verb::Dump, "dump"},
}};

constexpr std::array<std::pair<SessionState, std::string_view>, 4> kStateNames{{
    {SessionState::Launched, "launched"},
    {SessionState::Recording, "recording"},
    {SessionState::Writing, "writing"},
    {SessionState::Ended, "ended"},
}};

// An output path is a file name the session will open: PATH_MAX bounds it, and a NUL would cut it short
// where the session passes it to the system.
constexpr size_t kMaxOutputBytes = 4096;
// How much of an unknown word a problem quotes: enough to recognise a typo, never a whole message.
constexpr size_t kQuotedBytes = 40;

// WORD as a problem may quote it: cut short, control bytes shown as '?'.
std::string quotedWord(std::string_view word) {
  std::string text(word.substr(0, kQuotedBytes));
  for (char& c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) c = '?';
  }
  if (word.size() > kQuotedBytes) text += "...";
  return "\"" + text + "\"";
}

std::string verbList() {
  std::string list;
  for (const auto& [verb, name] : kVerbNames) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

// Reads the fields of one JSON object, each checked for its type; remembers the first problem and leaves
// the fields after it alone. Fields it is not asked for are ignored, so a newer peer may add some.
class FieldReader {
 public:
  FieldReader(const json& object, std::string what) : object_(object), what_(std::move(what)) {}

  bool ok() const { return problem_.empty(); }
  const std::string& problem() const { return problem_; }
  void fail(std::string problem) {
    if (ok()) problem_ = std::move(problem);
  }

  // The field KEY, or nullptr when it is missing (a problem too when REQUIRED).
  const json* find(const char* key, bool required = false) {
    if (!ok()) return nullptr;
    auto it = object_.find(key);
    if (it != object_.end()) return &*it;
    if (required) fail(what_ + " has no \"" + key + "\"");
    return nullptr;
  }

  void text(const char* key, std::string& into) {
    if (const json* value = find(key)) {
      if (value->is_string()) {
        into = value->get<std::string>();
      } else {
        wrongType(key, "a string");
      }
    }
  }

  void flag(const char* key, bool& into, bool required = false) {
    if (const json* value = find(key, required)) {
      if (value->is_boolean()) {
        into = value->get<bool>();
      } else {
        wrongType(key, "true or false");
      }
    }
  }

  void integer(const char* key, int64_t& into) {
    if (const json* value = find(key)) {
      bool fits = value->is_number_integer() &&
                  (!value->is_number_unsigned() ||
                   value->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
      if (fits) {
        into = value->get<int64_t>();
      } else {
        wrongType(key, "an integer");
      }
    }
  }

  void count(const char* key, uint64_t& into) {
    if (const json* value = find(key)) {
      if (value->is_number_unsigned()) {
        into = value->get<uint64_t>();
      } else {
        wrongType(key, "a count (an integer of 0 or more)");
      }
    }
  }

  void number(const char* key, double& into) {
    if (const json* value = find(key)) {
      if (value->is_number()) {
        into = value->get<double>();
      } else {
        wrongType(key, "a number");
      }
    }
  }

  void texts(const char* key, std::vector<std::string>& into) {
    const json* value = find(key);
    if (!value) return;
    if (!value->is_array()) return wrongType(key, "a list of strings");
    into.clear();
    for (const json& item : *value) {
      if (!item.is_string()) return wrongType(key, "a list of strings");
      into.push_back(item.get<std::string>());
    }
  }

  void wrongType(const char* key, const char* expected) { fail(what_ + "'s \"" + key + "\" is not " + expected); }

 private:
  const json& object_;
  std::string what_;
  std::string problem_;
};

// MESSAGE as a JSON object, or nullopt with PROBLEM set. WHAT names the message in the problem.
std::optional<json> parseObject(std::string_view message, const std::string& what, std::string& problem) {
  if (message.empty()) {
    problem = what + " is empty";
    return std::nullopt;
  }
  if (message.size() > kMaxMessageBytes) {
    problem = what + " is longer than the " + std::to_string(kMaxMessageBytes) + " bytes a message may have";
    return std::nullopt;
  }
  json parsed = json::parse(message.begin(), message.end(), nullptr, false);
  if (parsed.is_discarded()) {
    problem = what + " is not JSON";
    return std::nullopt;
  }
  if (!parsed.is_object()) {
    problem = what + " is not a JSON object";
    return std::nullopt;
  }
  return parsed;
}

void checkOutput(FieldReader& fields, const std::string& output) {
  if (output.size() > kMaxOutputBytes) {
    fields.fail("the request's output path is longer than " + std::to_string(kMaxOutputBytes) + " bytes");
  } else if (output.find('\0') != std::string::npos) {
    fields.fail("the request's output path contains a NUL byte");
  }
}

void readStatus(const json& object, SessionStatus& status, FieldReader& reply) {
  if (!object.is_object()) return reply.wrongType("status", "an object");
  FieldReader fields(object, "the reply's status");
  fields.text("name", status.name);
  fields.text("program", status.program);
  fields.integer("pid", status.pid);
  std::string state;
  fields.text("state", state);
  if (fields.ok() && !state.empty()) {
    if (auto known = stateFromName(state)) {
      status.state = *known;
    } else {
      fields.fail("the reply's status has the unknown state " + quotedWord(state));
    }
  }
  fields.number("recordingSeconds", status.recordingSeconds);
  fields.count("events", status.events);
  fields.texts("files", status.files);
  fields.flag("flightRecorder", status.flightRecorder);
  if (!fields.ok()) reply.fail(fields.problem());
}

// Text that did not come from us (a handler's exception, a program's arguments) may be any bytes: bytes
// that are not UTF-8 are sent as U+FFFD rather than making encode throw.
std::string dumped(const json& object) { return object.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string_view verbName(Verb verb) {
  for (const auto& [known, name] : kVerbNames) {
    if (known == verb) return name;
  }
  return "unknown";
}

std::optional<Verb> verbFromName(std::string_view name) {
  for (const auto& [verb, known] : kVerbNames) {
    if (known == name) return verb;
  }
  return std::nullopt;
}

std::string_view stateName(SessionState state) {
  for (const auto& [known, name] : kStateNames) {
    if (known == state) return name;
  }
  return "unknown";
}

std::optional<SessionState> stateFromName(std::string_view name) {
  for (const auto& [state, known] : kStateNames) {
    if (known == name) return state;
  }
  return std::nullopt;
}

std::string encode(const Request& request) {
  json object{{"verb", verbName(request.verb)}};
  if (!request.output.empty()) object["output"] = request.output;
  return dumped(object);
}

std::string encode(const Reply& reply) {
  const SessionStatus& status = reply.status;
  // JSON has no NaN or infinity (nlohmann writes null, which decodeReply refuses).
  double seconds = std::isfinite(status.recordingSeconds) ? status.recordingSeconds : 0.0;
  json object{{"ok", reply.ok},
              {"error", reply.error},
              {"message", reply.message},
              {"file", reply.file},
              {"status",
               {{"name", status.name},
                {"program", status.program},
                {"pid", status.pid},
                {"state", stateName(status.state)},
                {"recordingSeconds", seconds},
                {"events", status.events},
                {"files", status.files},
                {"flightRecorder", status.flightRecorder}}}};
  return dumped(object);
}

std::optional<Request> decodeRequest(std::string_view message, std::string& problem) {
  std::optional<json> object = parseObject(message, "the request", problem);
  if (!object) return std::nullopt;
  FieldReader fields(*object, "the request");
  std::string verb;
  if (const json* value = fields.find("verb", true)) {
    if (value->is_string()) {
      verb = value->get<std::string>();
    } else {
      fields.wrongType("verb", "a string");
    }
  }
  Request request;
  if (fields.ok()) {
    if (auto known = verbFromName(verb)) {
      request.verb = *known;
    } else {
      fields.fail("the request's verb " + quotedWord(verb) + " is not one of " + verbList());
    }
  }
  fields.text("output", request.output);
  if (fields.ok()) checkOutput(fields, request.output);
  if (!fields.ok()) {
    problem = fields.problem();
    return std::nullopt;
  }
  return request;
}

std::optional<Reply> decodeReply(std::string_view message, std::string& problem) {
  std::optional<json> object = parseObject(message, "the reply", problem);
  if (!object) return std::nullopt;
  FieldReader fields(*object, "the reply");
  Reply reply;
  fields.flag("ok", reply.ok, true);
  fields.text("error", reply.error);
  fields.text("message", reply.message);
  fields.text("file", reply.file);
  if (const json* status = fields.find("status")) readStatus(*status, reply.status, fields);
  if (!fields.ok()) {
    problem = fields.problem();
    return std::nullopt;
  }
  return reply;
}

}  // namespace gpuscope::control
