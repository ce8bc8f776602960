#include "collector/launch/record_files.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace fs = std::filesystem;

namespace {

constexpr const char* kOwnerFile = "recorder";

std::vector<std::string> sessionBases() {
  std::vector<std::string> bases{"/dev/shm"};
  if (const char* tmpdir = std::getenv("TMPDIR"); tmpdir && *tmpdir) bases.emplace_back(tmpdir);
  bases.emplace_back("/tmp");
  return bases;
}

// Field 22 of /proc/PID/stat (the start time in clock ticks), or 0 when the process is gone.
uint64_t processStartTicks(long pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(file, text)) return 0;
  size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 1));
  std::string field;
  for (int index = 3; fields >> field; ++index) {
    if (index == 22) return std::strtoull(field.c_str(), nullptr, 10);
  }
  return 0;
}

// Whether process PID, started at STARTTICKS (0: any time), is gone.
bool processGone(long pid, uint64_t startTicks) {
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return true;
  uint64_t now = processStartTicks(pid);
  return now != 0 && startTicks != 0 && now != startTicks;
}

// The trace a gone recorder was writing, as its owner file in DIRECTORY names it; nothing when
// its recorder runs, or when there is no owner file (a directory of an older gpuscope, or one
// being created right now: left alone).
std::optional<std::string> goneOwnersTrace(const fs::path& directory) {
  std::ifstream owner(directory / kOwnerFile);
  long pid = 0;
  uint64_t startTicks = 0;
  if (!(owner >> pid >> startTicks) || pid <= 0 || !processGone(pid, startTicks)) return std::nullopt;
  std::string trace;
  owner >> std::ws;
  std::getline(owner, trace);
  return trace;
}

// Whether process PID is a gpuscope that still runs (a recorder still writing its trace).
bool isRunningGpuscope(long pid) {
  std::string name;
  std::ifstream("/proc/" + std::to_string(pid) + "/comm") >> name;
  return name == "gpuscope" && !processGone(pid, 0);
}

}  // namespace

SessionDirectory::SessionDirectory(const std::string& tracePath) {
  for (const std::string& base : sessionBases()) {
    std::string pattern = base + "/gpuscope-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!mkdtemp(buffer.data())) continue;
    path_ = buffer.data();
    std::ofstream owner(fs::path(path_) / kOwnerFile);
    std::error_code error;
    owner << getpid() << " " << processStartTicks(getpid()) << "\n" << fs::absolute(tracePath, error).string() << "\n";
    return;
  }
  throw TraceError(std::string("cannot create a session directory in /dev/shm or /tmp: ") + std::strerror(errno));
}

SessionDirectory::~SessionDirectory() {
  std::error_code error;
  fs::remove_all(path_, error);
}

StaleSessions removeStaleSessionDirectories() {
  StaleSessions stale;
  for (const std::string& base : sessionBases()) {
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(base, error)) {
      std::string name = entry.path().filename().string();
      if (name.rfind("gpuscope-", 0) != 0 || !entry.is_directory(error)) continue;
      std::optional<std::string> trace = goneOwnersTrace(entry.path());
      if (!trace) continue;
      std::error_code removeError;
      if (fs::remove_all(entry.path(), removeError) > 0 && !removeError) ++stale.removed;
      if (!trace->empty() && fs::exists(*trace, removeError)) stale.traces.push_back(*trace);
    }
  }
  return stale;
}

std::string recoverRecording(const std::string& path) {
  static const std::regex recording(R"(^(.+)\.([0-9]+)\.recording$)");
  std::smatch parts;
  if (!std::regex_match(path, parts, recording))
    throw TraceError(path + " is not a file that a recorder was writing (those are named FILE.<pid>.recording)");
  std::string finalPath = parts[1].str();
  if (isRunningGpuscope(std::stol(parts[2].str())))
    throw TraceError(path + " is still being written by gpuscope (process " + parts[2].str() + ")");
  if (fs::exists(finalPath)) throw TraceError(finalPath + " exists already: move it away, then recover " + path);
  std::unique_ptr<TraceWriter> writer = TraceWriter::resume(path);
  writer->addMeta("recovered", "the recorder was killed: this file holds what it had committed");
  writer->finish();
  std::error_code error;
  fs::rename(path, finalPath, error);
  if (error)
    throw TraceError("the recovered trace could not be moved into place as " + finalPath + " (" + error.message() +
                     ")");
  return finalPath;
}

PartialOutput::PartialOutput(std::string finalPath)
    : finalPath_(std::move(finalPath)), writingPath_(finalPath_ + "." + std::to_string(getpid()) + ".recording") {}

PartialOutput::~PartialOutput() {
  if (committed_) return;
  std::error_code error;
  fs::remove(writingPath_, error);
  fs::remove(writingPath_ + "-journal", error);  // SQLite's, when the writer failed mid-transaction
}

void PartialOutput::commit() {
  std::error_code error;
  fs::rename(writingPath_, finalPath_, error);
  if (error)
    throw TraceError("the trace could not be moved into place as " + finalPath_ + " (" + error.message() + ")");
  committed_ = true;
}

}  // namespace gpuscope
