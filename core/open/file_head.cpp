#include "core/open/file_head.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.h"

namespace gpuscope {
namespace {

void requireRegularFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  auto status = fs::status(path, error);
  if (error || !fs::exists(status)) throw TraceError(path + " does not exist.");
  if (fs::is_directory(status)) throw TraceError(path + " is a directory, not a trace file.");
  if (!fs::is_regular_file(status))
    throw TraceError(path + " is not a regular file (a pipe or device), not a trace file.");
}

std::string readStoredBytes(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw TraceError("Cannot open " + path + " for reading: " + std::strerror(errno) + ".");
  std::string bytes(kFileHeadBytes, '\0');
  size_t read = std::fread(bytes.data(), 1, bytes.size(), file);
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) throw TraceError("Cannot read " + path + ".");
  bytes.resize(read);
  return bytes;
}

std::string readDecompressedBytes(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) return {};
  std::string text(kFileHeadBytes, '\0');
  int read = gzread(file, text.data(), static_cast<unsigned>(text.size()));
  gzclose(file);
  text.resize(read > 0 ? static_cast<size_t>(read) : 0);
  return text;
}

}  // namespace

bool startsWithGzipMagic(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

FileHead readFileHead(const std::string& path) {
  requireRegularFile(path);
  FileHead head;
  head.stored = readStoredBytes(path);
  head.gzip = startsWithGzipMagic(head.stored);
  head.text = head.gzip ? readDecompressedBytes(path) : head.stored;
  return head;
}

}  // namespace gpuscope
