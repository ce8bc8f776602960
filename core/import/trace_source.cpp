#include "core/import/trace_source.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/error.h"
#include "core/import/kineto/kineto_import.h"

namespace gpuscope {
namespace {

// Temporary trace files made from PyTorch traces, removed at exit.
class ConvertedFiles {
 public:
  ~ConvertedFiles() {
    std::error_code ignored;
    for (const auto& [source, converted] : files_) {
      std::filesystem::remove(converted, ignored);
      std::filesystem::remove(converted + ".gpu-lane", ignored);
    }
  }

  std::string convert(const std::string& path) {
    std::lock_guard lock(mutex_);
    std::error_code error;
    std::string key = std::filesystem::absolute(path, error).string();
    auto found = files_.find(key);
    if (found != files_.end()) return found->second;
    static std::atomic<int> counter{0};
    auto directory = std::filesystem::temp_directory_path(error);
    if (error) directory = "/tmp";
    std::string target =
        (directory / ("gpuscope-kineto-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".sqlite"))
            .string();
    try {
      importKinetoTrace(path, target);
    } catch (...) {
      std::filesystem::remove(target, error);
      std::filesystem::remove(target + ".gpu-lane", error);
      throw;
    }
    files_[key] = target;
    return target;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> files_;
};

ConvertedFiles& convertedFiles() {
  static ConvertedFiles files;
  return files;
}

}  // namespace

TraceFormat detectTraceFormat(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return TraceFormat::Unknown;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return TraceFormat::Unknown;
  std::array<char, 64> head{};
  size_t n = std::fread(head.data(), 1, head.size(), file);
  std::fclose(file);
  static constexpr char kSqliteMagic[] = "SQLite format 3";  // and its NUL: 16 bytes
  if (n >= sizeof kSqliteMagic && std::memcmp(head.data(), kSqliteMagic, sizeof kSqliteMagic) == 0)
    return TraceFormat::Sqlite;
  if (n >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
    return TraceFormat::Kineto;
  size_t i = 0;
  if (n >= 3 && std::memcmp(head.data(), "\xEF\xBB\xBF", 3) == 0) i = 3;  // a UTF-8 byte order mark
  while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  return i < n && head[i] == '{' ? TraceFormat::Kineto : TraceFormat::Unknown;
}

std::string sqliteFileFor(const std::string& path) {
  if (detectTraceFormat(path) != TraceFormat::Kineto) return path;
  return convertedFiles().convert(path);
}

}  // namespace gpuscope
