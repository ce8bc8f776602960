#include "core/import/kineto/gzip_stream.h"

#include <zlib.h>

#include <string>

#include "core/error.h"

namespace gpuscope {

GzipFileBuffer::GzipFileBuffer(const std::string& path) : path_(path), buffer_(1 << 20) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw TraceError("Cannot open " + path + " for reading.");
  gzbuffer(file, 1 << 20);
  file_ = file;
}

GzipFileBuffer::~GzipFileBuffer() {
  if (file_) gzclose(static_cast<gzFile>(file_));
}

void GzipFileBuffer::readToEnd() {
  while (underflow() != traits_type::eof()) setg(eback(), egptr(), egptr());
}

GzipFileBuffer::int_type GzipFileBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  int n = gzread(static_cast<gzFile>(file_), buffer_.data(), static_cast<unsigned>(buffer_.size()));
  if (n < 0) {
    int code = 0;
    std::string reason = gzerror(static_cast<gzFile>(file_), &code);
    throw TraceError(path_ + " could not be decompressed: " + reason + ".");
  }
  if (n == 0) {
    // zlib hands out what it could inflate and ends a cut stream as if it were complete, leaving
    // Z_BUF_ERROR behind: without this the parser would call the text's sudden end invalid JSON.
    int code = 0;
    gzerror(static_cast<gzFile>(file_), &code);
    if (code == Z_BUF_ERROR)
      throw TraceError(path_ + " is truncated: its gzip stream ends after " + std::to_string(bytesRead_) +
                       " bytes of text, before its end marker (was the file cut short in a copy or a download?).");
    return traits_type::eof();
  }
  bytesRead_ += static_cast<size_t>(n);
  setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
  return traits_type::to_int_type(*gptr());
}

}  // namespace gpuscope
