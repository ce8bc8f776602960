#include "core/open/imported_files.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>

namespace gpuscope {
namespace {

// An SQLite trace and the side file its writer may leave beside it.
void removeTraceFile(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  std::filesystem::remove(path + ".gpu-lane", ignored);
}

// Which version of SOURCE an import was made from: its absolute path, size and modification time, so that a
// file written again since (a new recording under the same name) is imported again.
std::string versionKey(const std::string& source) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::string key = fs::absolute(source, error).string();
  key += '\n' + std::to_string(fs::file_size(source, error));
  key += '\n' + std::to_string(fs::last_write_time(source, error).time_since_epoch().count());
  return key;
}

}  // namespace

ImportedFiles::~ImportedFiles() {
  for (const auto& [source, imported] : files_) removeTraceFile(imported);
}

ImportedFiles& ImportedFiles::ofThisProcess() {
  static ImportedFiles files;
  return files;
}

std::string ImportedFiles::newTargetPath() const {
  static std::atomic<int> counter{0};
  std::error_code error;
  auto directory = std::filesystem::temp_directory_path(error);
  if (error) directory = "/tmp";
  auto name = "gpuscope-import-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".sqlite";
  return (directory / name).string();
}

std::string ImportedFiles::sqliteFileFor(const std::string& source, const TraceFormat& format) {
  std::lock_guard lock(mutex_);
  std::string key = versionKey(source);
  auto found = files_.find(key);
  if (found != files_.end()) return found->second;
  std::string target = newTargetPath();
  try {
    format.import(source, target);
  } catch (...) {
    removeTraceFile(target);
    throw;
  }
  files_[key] = target;
  return target;
}

}  // namespace gpuscope
