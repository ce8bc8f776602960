#pragma once
// Helpers for the recorder tests: run `gpuscope record` as a child process, query the file it wrote,
// and read the logs the test programs keep of their own calls.
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuscope::test {

// A fresh directory, removed with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct RunResult {
  int status = -1;  // exit status, or 128 + the signal that ended gpuscope
  std::string errorOutput;
};

// A `gpuscope ARGS...` running in the background; its stderr is collected by wait().
class Running {
 public:
  // MERGEOUTPUT: stdout is collected too, with stderr; else it goes to /dev/null. FILESIZELIMIT,
  // when not 0, is gpuscope's RLIMIT_FSIZE in bytes (a disk that fills up).
  Running(const std::vector<std::string>& args, bool ownProcessGroup, bool mergeOutput = false,
          uint64_t fileSizeLimit = 0);
  ~Running();
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;
  pid_t pid() const { return pid_; }
  RunResult wait();

 private:
  pid_t pid_ = -1;
  int errorPipe_ = -1;
  std::string errorOutput_;
  bool waited_ = false;
};

RunResult runGpuscope(const std::vector<std::string>& args, bool mergeOutput = false);
// Waits until PATH holds TEXT (a program's "ready" line); false after TIMEOUTMS.
bool waitForText(const std::string& path, const std::string& text, int timeoutMs = 20000);

// The session folders of this machine's recorders, in /dev/shm; the one whose owner file names recorder PID,
// or "".
std::vector<std::string> sessionFolders();
std::string sessionFolderOf(pid_t pid);

// Every row of SQL on the trace file at PATH, each column as text ("NULL" for NULL).
std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql);
int64_t queryInt(const std::string& path, const std::string& sql);
// GPUSCOPE_META value, or nothing.
std::optional<std::string> meta(const std::string& path, const std::string& name);

// One line of a test program's log: LABEL TID START_NS END_NS on the session clock.
struct LoggedCall {
  std::string label;
  int64_t tid = 0;
  int64_t start = 0;
  int64_t end = 0;
};
std::vector<LoggedCall> readLog(const std::string& path);
const LoggedCall& findCall(const std::vector<LoggedCall>& calls, const std::string& label);

// An OSRT_API or NVTX_EVENTS row as the tests look at it.
struct TimedRow {
  std::string name;
  int64_t start = 0;
  int64_t end = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  int64_t returnValue = 0;
};
std::vector<TimedRow> osRuntimeRows(const std::string& path);

}  // namespace gpuscope::test
