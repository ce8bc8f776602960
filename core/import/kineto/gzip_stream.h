#pragma once
// GzipFileBuffer: a std::streambuf over a file that is read through zlib, so plain and gzip files
// stream the same way (zlib passes a file without the gzip magic bytes through unchanged). A gzip stream
// that ends before its end marker throws TraceError saying the file is truncated.
#include <streambuf>
#include <string>
#include <vector>

namespace gpuscope {

class GzipFileBuffer : public std::streambuf {
 public:
  // Throws TraceError with one sentence when PATH cannot be opened.
  explicit GzipFileBuffer(const std::string& path);
  ~GzipFileBuffer() override;
  GzipFileBuffer(const GzipFileBuffer&) = delete;
  GzipFileBuffer& operator=(const GzipFileBuffer&) = delete;

  // Reads what the parser left after the document (whitespace), so that a stream cut in its trailer, whose
  // text is whole, is found truncated too.
  void readToEnd();

  // Bytes of uncompressed text handed out so far.
  size_t bytesRead() const { return bytesRead_; }

 protected:
  int_type underflow() override;

 private:
  std::string path_;
  void* file_ = nullptr;  // gzFile
  std::vector<char> buffer_;
  size_t bytesRead_ = 0;
};

}  // namespace gpuscope
