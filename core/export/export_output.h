#pragma once
// ExportOutput: the file an exporter writes, appearing under its final name only when complete. Bytes go
// to a temporary file beside it (through zlib when the name ends in ".gz"); commit() renames it into
// place, and an output that is never committed (an error half-way) is removed.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

class ExportOutput {
 public:
  // Throws TraceError with one sentence when PATH's folder cannot take a new file.
  explicit ExportOutput(std::string path);
  ~ExportOutput();
  ExportOutput(const ExportOutput&) = delete;
  ExportOutput& operator=(const ExportOutput&) = delete;

  void write(std::string_view bytes);
  // Flushes, closes and renames the temporary file to the final path; throws TraceError on failure.
  void commit();

  const std::string& path() const { return path_; }
  bool gzip() const { return gzip_; }
  // Bytes handed to write() so far (before compression).
  uint64_t bytesWritten() const { return bytesWritten_; }

 private:
  void flushBuffer();
  void discard();

  std::string path_;
  std::string tempPath_;
  bool gzip_ = false;
  int fd_ = -1;
  void* gzFile_ = nullptr;
  std::vector<char> buffer_;
  size_t used_ = 0;
  uint64_t bytesWritten_ = 0;
  bool committed_ = false;
};

}  // namespace gpuscope
