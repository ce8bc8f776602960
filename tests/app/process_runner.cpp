#include "process_runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>

extern char** environ;

namespace gpuscope::test {
namespace {

namespace fs = std::filesystem;

// The environment of this process with CHANGES applied.
std::vector<std::string> environmentWith(const EnvChanges& changes) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry; ++entry) {
    const std::string variable(*entry);
    if (!changes.count(variable.substr(0, variable.find('=')))) env.push_back(variable);
  }
  for (const auto& [name, value] : changes)
    if (value) env.push_back(name + "=" + *value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

}  // namespace

std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

size_t lineCount(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

std::string testTempPath(const std::string& prefix, const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (fs::path(::testing::TempDir()) / (prefix + "_" + test + "_" + name)).string();
}

// Appended in place: `std::string(LITERAL) + "/" + ...` trips GCC 12's -Warray-bounds false positive for some
// lengths of the fixtures' path, that is, for some checkout folders.
std::string fixturePath(const std::string& relative) {
  std::string path = GPUSCOPE_FIXTURES;
  path.append("/").append(relative);
  return path;
}

std::string nsysFixture(const std::string& name) { return fixturePath("nsys/" + name); }

ProcessRun runProgram(const std::string& program, const std::vector<std::string>& args, const EnvChanges& env) {
  static std::atomic<int> runs{0};
  const std::string stem = testTempPath("run", std::to_string(::getpid()) + "_" + std::to_string(runs++));
  const std::string outPath = stem + ".out", errPath = stem + ".err";
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> envStrings = environmentWith(env);
  auto argvp = pointers(argv);
  auto envp = pointers(envStrings);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  ProcessRun run;
  const int spawned = posix_spawn(&pid, argvp[0], &actions, nullptr, argvp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "could not start " << program;
    return run;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = readWholeFile(outPath);
  run.err = readWholeFile(errPath);
  std::error_code ignored;
  fs::remove(outPath, ignored);
  fs::remove(errPath, ignored);
  return run;
}

ProcessRun runGpuscope(const std::string& args, const EnvChanges& env) {
  return runProgram("/bin/sh", {"-c", "'" + std::string(GPUSCOPE_CLI) + "' " + args}, env);
}

}  // namespace gpuscope::test
