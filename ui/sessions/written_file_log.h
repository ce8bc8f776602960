#pragma once
// WrittenFileLog: which trace files the sessions write while the Sessions window watches, so that each new
// one is announced (and opened) once, whichever way the window learns of it: the reply to its own Stop or
// Dump, or a refresh that finds a new entry at the end of a session's status.files because a recording
// ended by itself (a capture range, a trigger, the program's exit).
//
// The two race. A refresh made while a Stop is on its way may list the file before the reply names it: the
// reply then announces nothing. A refresh made after the reply lists it too: that echo announces nothing.
// The caller drops refreshes that were under way when a reply came (SessionPoller::restart), so that a
// status older than the reply is never compared with it.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ui/sessions/session_poll.h"

namespace gpuscope::ui {

class WrittenFileLog {
 public:
  // The files that SESSIONS' statuses add at the end of their files since the last refresh, in session
  // order. A session seen for the first time adds nothing: its files were written before the window
  // looked. A session that did not answer keeps what was known of it; one no longer listed is forgotten.
  std::vector<std::string> update(const std::vector<SessionSnapshot>& sessions);
  // A Stop or Dump was sent to SESSION; its reply comes to replied().
  void asking(const std::string& session);
  // SESSION's reply named FILE (empty: none). True when FILE is new, false when a refresh made while the
  // request was on its way announced it already.
  bool replied(const std::string& session, const std::string& file);

 private:
  struct Known {
    std::optional<size_t> fileCount;  // nullopt until a refresh has seen the session
    std::string lastFile;
    std::string echo;                  // a file a reply announced, which a refresh will list next
    bool asking = false;               // a Stop or Dump is on its way
    std::set<std::string> seenAsking;  // files announced by refreshes while it was
  };
  // The file SESSION's STATUS adds at its end, if any, recording what is now known.
  std::optional<std::string> newLastFile(Known& known, const control::SessionStatus& status);

  std::map<std::string, Known> sessions_;
};

}  // namespace gpuscope::ui
