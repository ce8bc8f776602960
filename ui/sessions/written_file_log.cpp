#include "ui/sessions/written_file_log.h"

#include <utility>

namespace gpuscope::ui {

std::vector<std::string> WrittenFileLog::update(const std::vector<SessionSnapshot>& sessions) {
  std::vector<std::string> written;
  std::map<std::string, Known> listed;
  for (const auto& session : sessions) {
    auto found = sessions_.find(session.name);
    Known known = found != sessions_.end() ? std::move(found->second) : Known{};
    if (session.status) {
      if (auto file = newLastFile(known, *session.status)) written.push_back(*file);
    }
    listed.emplace(session.name, std::move(known));
  }
  sessions_ = std::move(listed);
  return written;
}

std::optional<std::string> WrittenFileLog::newLastFile(Known& known, const control::SessionStatus& status) {
  const std::string last = status.files.empty() ? std::string() : status.files.back();
  const bool firstSight = !known.fileCount;
  const bool grew = !firstSight && (status.files.size() > *known.fileCount || last != known.lastFile);
  known.fileCount = status.files.size();
  known.lastFile = last;
  if (!grew || last.empty()) return std::nullopt;
  if (std::exchange(known.echo, std::string()) == last) return std::nullopt;
  if (known.asking) known.seenAsking.insert(last);
  return last;
}

void WrittenFileLog::asking(const std::string& session) {
  Known& known = sessions_[session];
  known.asking = true;
  known.seenAsking.clear();
}

bool WrittenFileLog::replied(const std::string& session, const std::string& file) {
  Known& known = sessions_[session];
  known.asking = false;
  const bool seen = known.seenAsking.erase(file) > 0;
  known.seenAsking.clear();
  if (file.empty() || seen) return false;
  known.echo = file;
  return true;
}

}  // namespace gpuscope::ui
