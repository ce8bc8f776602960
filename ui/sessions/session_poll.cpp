#include "ui/sessions/session_poll.h"

#include <algorithm>
#include <exception>
#include <filesystem>

#include "collector/control/control_channel.h"

namespace gpuscope::ui {
namespace {

SessionSnapshot askStatus(const control::Endpoint& endpoint, std::chrono::milliseconds timeout) {
  SessionSnapshot snapshot{endpoint.name, endpoint.path, std::nullopt, {}};
  try {
    control::Reply reply = control::sendRequest(endpoint.path, {control::Verb::Status, {}}, timeout);
    if (reply.ok)
      snapshot.status = std::move(reply.status);
    else
      snapshot.error = reply.error;
  } catch (const std::exception& error) {
    snapshot.error = error.what();
  }
  return snapshot;
}

// A session whose socket is gone ended while it was being asked: the next listing would not show it either.
bool endedMeanwhile(const SessionSnapshot& snapshot) {
  std::error_code ignored;
  return !snapshot.status && !std::filesystem::exists(snapshot.socketPath, ignored);
}

}  // namespace

SessionsSnapshot pollSessions(std::chrono::milliseconds statusTimeout) {
  SessionsSnapshot result;
  std::vector<control::Endpoint> endpoints;
  try {
    endpoints = control::findSessions("");
  } catch (const std::exception& error) {
    result.problem = error.what();
    return result;
  }
  for (const auto& endpoint : endpoints) {
    SessionSnapshot snapshot = askStatus(endpoint, statusTimeout);
    if (!endedMeanwhile(snapshot)) result.sessions.push_back(std::move(snapshot));
  }
  std::sort(result.sessions.begin(), result.sessions.end(),
            [](const SessionSnapshot& a, const SessionSnapshot& b) { return a.name < b.name; });
  return result;
}

control::Reply askSession(const std::string& socketPath, const control::Request& request) {
  try {
    return control::sendRequest(socketPath, request);
  } catch (const std::exception& error) {
    control::Reply reply;
    reply.error = error.what();
    return reply;
  }
}

}  // namespace gpuscope::ui
