#include "core/export/export_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace gpuscope {
namespace {

constexpr size_t kBufferBytes = 1 << 20;

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string writeFailure(const std::string& path) { return "Writing " + path + " failed: the disk may be full."; }

}  // namespace

ExportOutput::ExportOutput(std::string path)
    : path_(std::move(path)), gzip_(endsWith(path_, ".gz")), buffer_(kBufferBytes) {
  tempPath_ = path_ + ".partial-XXXXXX";
  fd_ = mkstemp(tempPath_.data());
  if (fd_ < 0) throw TraceError("Cannot write " + path_ + ": check that its folder exists and is writable.");
  fchmod(fd_, 0644);
  if (gzip_) {
    gzFile file = gzdopen(fd_, "wb6");
    if (!file) {
      discard();
      throw TraceError("Cannot start gzip compression for " + path_ + ".");
    }
    gzbuffer(file, kBufferBytes);
    gzFile_ = file;
  }
}

ExportOutput::~ExportOutput() {
  if (!committed_) discard();
}

void ExportOutput::write(std::string_view bytes) {
  bytesWritten_ += bytes.size();
  while (!bytes.empty()) {
    size_t n = std::min(bytes.size(), buffer_.size() - used_);
    std::memcpy(buffer_.data() + used_, bytes.data(), n);
    used_ += n;
    bytes.remove_prefix(n);
    if (used_ == buffer_.size()) flushBuffer();
  }
}

void ExportOutput::flushBuffer() {
  size_t done = 0;
  if (gzFile_) {
    if (used_ && gzwrite(static_cast<gzFile>(gzFile_), buffer_.data(), static_cast<unsigned>(used_)) <= 0)
      throw TraceError(writeFailure(path_));
    used_ = 0;
    return;
  }
  while (done < used_) {
    ssize_t n = ::write(fd_, buffer_.data() + done, used_ - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw TraceError(writeFailure(path_));
    done += static_cast<size_t>(n);
  }
  used_ = 0;
}

void ExportOutput::commit() {
  flushBuffer();
  if (gzFile_) {
    int status = gzclose(static_cast<gzFile>(gzFile_));
    gzFile_ = nullptr;
    fd_ = -1;  // gzclose closed it
    if (status != Z_OK) throw TraceError(writeFailure(path_));
  } else {
    bool synced = ::fsync(fd_) == 0 || errno == EINVAL;
    bool closed = ::close(fd_) == 0;
    fd_ = -1;
    if (!synced || !closed) throw TraceError(writeFailure(path_));
  }
  if (std::rename(tempPath_.c_str(), path_.c_str()) != 0)
    throw TraceError("Cannot replace " + path_ + ": check that it is not a folder and that its folder is writable.");
  committed_ = true;
}

void ExportOutput::discard() {
  if (gzFile_)
    gzclose(static_cast<gzFile>(gzFile_));
  else if (fd_ >= 0)
    ::close(fd_);
  gzFile_ = nullptr;
  fd_ = -1;
  std::remove(tempPath_.c_str());
}

}  // namespace gpuscope
