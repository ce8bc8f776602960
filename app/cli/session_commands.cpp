#include "app/cli/session_commands.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "collector/control/control_channel.h"
#include "core/error.h"
#include "core/text/units.h"

namespace gpuscope::cli {
namespace {

// The sessions a verb acts on: those matching PATTERN, or the only one there is when no pattern is given.
std::vector<control::Endpoint> chosenSessions(const std::string& pattern, const std::string& verb) {
  std::vector<control::Endpoint> sessions = control::findSessions(pattern);
  if (sessions.empty()) {
    if (pattern.empty()) throw TraceError("no session is running for this user: start one with gpuscope launch");
    throw TraceError("no session of this user matches '" + pattern + "' (gpuscope sessions lists them)");
  }
  if (pattern.empty() && sessions.size() > 1) {
    std::string names;
    for (const control::Endpoint& session : sessions) names += (names.empty() ? "" : ", ") + session.name;
    throw TraceError(std::to_string(sessions.size()) + " sessions are running (" + names + "): name one with " + verb +
                     " --session NAME, or a pattern such as --session '*'");
  }
  return sessions;
}

// Sends VERB to every chosen session; prints each reply's sentence. Exits 1 when any was refused.
void runVerb(control::Verb verb, const std::string& pattern, const std::string& output) {
  std::string name(control::verbName(verb));
  std::vector<control::Endpoint> sessions = chosenSessions(pattern, name);
  if (!output.empty() && sessions.size() > 1)
    throw TraceError("-o names one file, and " + std::to_string(sessions.size()) +
                     " sessions match: leave it out (each session names its own)");
  bool refused = false;
  for (const control::Endpoint& session : sessions) {
    control::Request request;
    request.verb = verb;
    request.output = output;
    try {
      control::Reply reply = control::sendRequest(session.path, request);
      if (reply.ok) {
        std::cout << "gpuscope: " << reply.message << "\n";
      } else {
        std::cerr << "gpuscope: " << reply.error << "\n";
        refused = true;
      }
    } catch (const TraceError& error) {
      std::cerr << "gpuscope: " << error.what() << "\n";
      refused = true;
    }
  }
  std::cout << std::flush;
  if (refused) std::exit(1);
}

std::string recordingText(const control::SessionStatus& status) {
  if (status.state != control::SessionState::Recording) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", status.recordingSeconds);
  return text;
}

void listSessions() {
  std::vector<control::Endpoint> sessions = control::findSessions("");
  if (sessions.empty()) {
    std::cout << "no session is running for this user\n";
    return;
  }
  std::printf("%-24s %-10s %-8s %-10s %10s %12s  %s\n", "NAME", "STATE", "PID", "RECORDING", "EVENTS", "FILES",
              "PROGRAM");
  for (const control::Endpoint& session : sessions) {
    try {
      control::Reply reply = control::sendRequest(session.path, {control::Verb::Status, ""}, std::chrono::seconds(5));
      const control::SessionStatus& status = reply.status;
      std::printf("%-24s %-10s %-8lld %-10s %10s %12zu  %s\n", session.name.c_str(),
                  std::string(control::stateName(status.state)).c_str(), static_cast<long long>(status.pid),
                  recordingText(status).c_str(), formatCount(status.events).c_str(), status.files.size(),
                  status.program.c_str());
    } catch (const TraceError& error) {
      std::printf("%-24s %s\n", session.name.c_str(), error.what());
    }
  }
}

void addVerb(CLI::App& app, control::Verb verb, const std::string& description, bool takesOutput) {
  auto pattern = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto* command = app.add_subcommand(std::string(control::verbName(verb)), description);
  command->add_option("--session", *pattern,
                      "The session, by name or shell pattern ('train.*' for every rank); without it, the one "
                      "session running");
  if (takesOutput)
    command->add_option("-o,--output", *output,
                        "The trace file this recording writes (default: the launch's -o, numbered: run.1.sqlite, "
                        "run.2.sqlite, ...)");
  command->callback([verb, pattern, output] { runVerb(verb, *pattern, *output); });
}

}  // namespace

void registerSessionCommands(CLI::App& app) {
  addVerb(app, control::Verb::Start, "Start recording a session that gpuscope launch runs", true);
  addVerb(app, control::Verb::Stop, "Stop a session's recording and write its trace file; says where", false);
  addVerb(app, control::Verb::Cancel, "Stop a session's recording and throw it away", false);
  addVerb(app, control::Verb::Dump, "Write a flight-recorder session's last window", false);
  auto* sessions = app.add_subcommand(
      "sessions", "List this user's sessions: name, state, program pid, time recording, events, files written");
  sessions->callback([] { listSessions(); });
}

}  // namespace gpuscope::cli
