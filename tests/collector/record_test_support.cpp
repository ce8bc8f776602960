#include "tests/collector/record_test_support.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"

namespace gpuscope::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "gpuscope-record-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code error;
  fs::remove_all(path_, error);
}

Running::Running(const std::vector<std::string>& args, bool ownProcessGroup, bool mergeOutput, uint64_t fileSizeLimit) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> words;
  words.push_back(GPUSCOPE_CLI);
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    if (ownProcessGroup) setpgid(0, 0);
    if (fileSizeLimit) {
      rlimit limit{fileSizeLimit, fileSizeLimit};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    dup2(fds[1], 2);
    if (mergeOutput) {
      dup2(fds[1], 1);
    } else {
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
    }
    execv(argv[0], argv.data());
    _exit(126);
  }
  if (ownProcessGroup) setpgid(pid_, pid_);
  close(fds[1]);
  errorPipe_ = fds[0];
}

Running::~Running() {
  if (!waited_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    wait();
  }
}

RunResult Running::wait() {
  char buffer[4096];
  ssize_t n;
  while ((n = read(errorPipe_, buffer, sizeof buffer)) > 0) errorOutput_.append(buffer, static_cast<size_t>(n));
  close(errorPipe_);
  int status = 0;
  waitpid(pid_, &status, 0);
  waited_ = true;
  RunResult result;
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.errorOutput = errorOutput_;
  return result;
}

RunResult runGpuscope(const std::vector<std::string>& args, bool mergeOutput) {
  Running running(args, false, mergeOutput);
  return running.wait();
}

bool waitForText(const std::string& path, const std::string& text, int timeoutMs) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream file(path);
    std::stringstream content;
    content << file.rdbuf();
    if (content.str().find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql) {
  Database db = Database::openReadOnly(path);
  Statement statement = db.prepare(sql);
  std::vector<std::vector<std::string>> rows;
  while (statement.step()) {
    std::vector<std::string> row;
    for (int column = 0; column < statement.columnCount(); ++column) {
      row.push_back(statement.isNull(column) ? "NULL" : std::string(statement.text(column)));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

int64_t queryInt(const std::string& path, const std::string& sql) {
  auto rows = query(path, sql);
  if (rows.empty() || rows[0].empty() || rows[0][0] == "NULL") throw std::runtime_error("no value for " + sql);
  return std::stoll(rows[0][0]);
}

std::optional<std::string> meta(const std::string& path, const std::string& name) {
  for (const auto& row : query(path, "SELECT name, value FROM GPUSCOPE_META")) {
    if (row[0] == name) return row[1];
  }
  return std::nullopt;
}

std::vector<LoggedCall> readLog(const std::string& path) {
  std::ifstream file(path);
  std::vector<LoggedCall> calls;
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    LoggedCall call;
    fields >> call.label >> call.tid >> call.start >> call.end;
    calls.push_back(call);
  }
  return calls;
}

const LoggedCall& findCall(const std::vector<LoggedCall>& calls, const std::string& label) {
  for (const LoggedCall& call : calls) {
    if (call.label == label) return call;
  }
  throw std::runtime_error("the program did not log " + label);
}

std::vector<TimedRow> osRuntimeRows(const std::string& path) {
  std::vector<TimedRow> rows;
  for (const auto& row : query(path,
                               "SELECT s.value, o.start, o.end, o.globalTid, o.returnValue FROM OSRT_API o "
                               "JOIN StringIds s ON s.id = o.nameId ORDER BY o.start")) {
    TimedRow timed;
    timed.name = row[0];
    timed.start = std::stoll(row[1]);
    timed.end = std::stoll(row[2]);
    int64_t globalTid = std::stoll(row[3]);
    timed.pid = global_id::pid(globalTid);
    timed.tid = global_id::tid(globalTid);
    timed.returnValue = std::stoll(row[4]);
    rows.push_back(timed);
  }
  return rows;
}

// The session folders of this machine's recorders, in /dev/shm.
std::vector<std::string> sessionFolders() {
  std::vector<std::string> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/dev/shm", error)) {
    if (entry.path().filename().string().rfind("gpuscope-", 0) == 0) found.push_back(entry.path().string());
  }
  return found;
}

// The session folder whose owner file names recorder PID, or "".
std::string sessionFolderOf(pid_t pid) {
  for (const std::string& folder : sessionFolders()) {
    std::ifstream owner(folder + "/recorder");
    long ownerPid = 0;
    if (owner >> ownerPid && ownerPid == pid) return folder;
  }
  return "";
}

}  // namespace gpuscope::test
