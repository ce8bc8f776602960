#include "core/open/temp_trace_file.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "core/error.h"

namespace gpuscope {

TempTraceFile::TempTraceFile(const std::string& fileName) {
  std::error_code error;
  std::filesystem::path temporary = std::filesystem::temp_directory_path(error);
  if (error) temporary = "/tmp";
  std::string pattern = (temporary / "gpuscope-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (mkdtemp(name.data()) == nullptr)
    throw TraceError("Cannot make a temporary folder in " + temporary.string() + " for " + fileName + ": " +
                     std::strerror(errno) + ".");
  folder_ = name.data();
  path_ = (std::filesystem::path(folder_) / fileName).string();
}

TempTraceFile::~TempTraceFile() { remove(); }

TempTraceFile::TempTraceFile(TempTraceFile&& other) noexcept
    : folder_(std::exchange(other.folder_, {})), path_(std::exchange(other.path_, {})) {}

TempTraceFile& TempTraceFile::operator=(TempTraceFile&& other) noexcept {
  if (this != &other) {
    remove();
    folder_ = std::exchange(other.folder_, {});
    path_ = std::exchange(other.path_, {});
  }
  return *this;
}

void TempTraceFile::remove() noexcept {
  if (folder_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
  folder_.clear();
}

}  // namespace gpuscope
