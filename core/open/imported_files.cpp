#include "core/open/imported_files.h"

#include <filesystem>

namespace gpuscope {
namespace {

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

ImportedFiles& ImportedFiles::ofThisProcess() {
  static ImportedFiles files;
  return files;
}

std::string ImportedFiles::sqliteFileFor(const std::string& source, const TraceFormat& format) {
  std::lock_guard lock(mutex_);
  std::string key = versionKey(source);
  auto found = files_.find(key);
  if (found != files_.end()) return found->second.path();
  TempTraceFile target(std::filesystem::path(source).filename().string() + ".sqlite");
  format.import(source, target.path());  // a failed import goes with TARGET
  return files_.emplace(key, std::move(target)).first->second.path();
}

}  // namespace gpuscope
