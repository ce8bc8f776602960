#include "app/cli/recipe_driver.h"

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

constexpr const char* kDriverRelative = "gpuscope_recipe/driver.py";

bool isFile(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

std::string pythonProgram() {
  if (const char* named = std::getenv("GPUSCOPE_PYTHON"); named && *named) return named;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

}  // namespace

std::string selfExecutable() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) throw TraceError("gpuscope recipe cannot tell where its own executable is (/proc/self/exe).");
  return self.string();
}

std::string findRecipeDriver() {
  if (const char* named = std::getenv("GPUSCOPE_RECIPE_DRIVER"); named && *named) {
    if (isFile(named)) return named;
    throw TraceError(std::string("The recipe driver is not at ") + named + " ($GPUSCOPE_RECIPE_DRIVER).");
  }
  std::vector<fs::path> candidates = {fs::path(selfExecutable()).parent_path() / "../share/gpuscope/python" /
                                      kDriverRelative};
#ifdef GPUSCOPE_SOURCE_PYTHON_DIR
  candidates.push_back(fs::path(GPUSCOPE_SOURCE_PYTHON_DIR) / kDriverRelative);
#endif
  for (const auto& candidate : candidates)
    if (isFile(candidate)) return fs::weakly_canonical(candidate).string();
  throw TraceError("gpuscope recipe cannot find its Dask driver (share/gpuscope/python/" +
                   std::string(kDriverRelative) + " beside the gpuscope binary): is gpuscope installed whole?");
}

int runRecipeDriver(const std::vector<std::string>& args) {
  std::string python = pythonProgram();
  std::vector<char*> argv;
  argv.push_back(python.data());
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  int failed = posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
  if (failed)
    throw TraceError("gpuscope recipe needs python3 with Dask, and " + python + " could not be started (" +
                     std::strerror(failed) + "); set GPUSCOPE_PYTHON to a python3 that has Dask.");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      throw TraceError("gpuscope recipe lost its Dask driver (" + std::string(std::strerror(errno)) + ").");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace gpuscope::cli
