#include "app/cli/peaks_helper.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/error.h"

extern char** environ;

namespace gpuscope::cli {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> searchDirectories() {
  std::vector<std::string> directories;
  if (const char* dir = std::getenv("GPUSCOPE_LIB_DIR"); dir && *dir) directories.emplace_back(dir);
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    directories.push_back((self.parent_path() / "../lib/gpuscope").string());
    directories.push_back(self.parent_path().string());
  }
#ifdef GPUSCOPE_PEAKS_BUILD_DIR
  directories.emplace_back(GPUSCOPE_PEAKS_BUILD_DIR);
#endif
  return directories;
}

bool isExecutable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

std::string readAll(int fd) {
  std::string out;
  char buffer[65536];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return out;
    }
  }
}

// Spawns PATH with stdout on the pipe's write end WRITE_FD; throws when it cannot start.
pid_t spawnWithStdout(const std::string& path, const std::vector<std::string>& args, int writeFd, int readFd) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, writeFd, STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, readFd);
  pid_t pid = 0;
  int failed = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed) throw TraceError(path + " could not be started (" + std::strerror(failed) + ").");
  return pid;
}

}  // namespace

std::string findPeaksHelper() {
  if (const char* named = std::getenv("GPUSCOPE_PEAKS_HELPER"); named && *named) {
    if (isExecutable(named)) return named;
    throw TraceError(std::string("gpuscope peaks needs its CUDA helper gpuscope-peaks, which is not at ") + named +
                     " ($GPUSCOPE_PEAKS_HELPER).");
  }
  for (const auto& directory : searchDirectories()) {
    fs::path candidate = fs::path(directory) / kPeaksHelperName;
    if (isExecutable(candidate)) return fs::canonical(candidate).string();
  }
  throw TraceError(
      "gpuscope peaks needs its CUDA helper gpuscope-peaks, which is not installed here (looked in "
      "$GPUSCOPE_LIB_DIR, ../lib/gpuscope and next to gpuscope): build gpuscope where the CUDA toolkit (nvcc) is.");
}

HelperRun runHelper(const std::string& path, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) throw TraceError(std::string("cannot start gpuscope-peaks: ") + std::strerror(errno) + ".");
  pid_t pid = 0;
  try {
    pid = spawnWithStdout(path, args, fds[1], fds[0]);
  } catch (...) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);
  HelperRun run;
  run.out = readAll(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) run.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  return run;
}

}  // namespace gpuscope::cli
