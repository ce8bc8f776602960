#pragma once
// What the control channel's tests share: a private temporary folder, an environment variable set for
// one test, and a raw client that sends any bytes at all.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

namespace gpuscope::control::testing {

// A folder under /tmp, removed with everything in it at the end of the test.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    char pattern[] = "/tmp/gpuscope-control-test-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// NAME set to VALUE (or unset, for nullopt) until the end of the scope.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = ::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnvironment() { set(old_); }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  void set(const std::optional<std::string>& value) {
    if (value) {
      ::setenv(name_.c_str(), value->c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }
  std::string name_;
  std::optional<std::string> old_;
};

// A SOCK_SEQPACKET connection to PATH (-1 when it cannot be made).
inline int connectRaw(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Sends BYTES as one message on a new connection to PATH and hangs up without reading the answer.
inline void sendRawAndHangUp(const std::string& path, const std::string& bytes) {
  int fd = connectRaw(path);
  ASSERT_GE(fd, 0) << "cannot connect to " << path << ": " << std::strerror(errno);
  ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  ::close(fd);
}

// A socket file at PATH that nobody listens on, as a killed collector leaves it.
inline void leaveStaleSocket(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  ::close(fd);
}

inline unsigned permissionBits(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return 0xFFFF;
  return info.st_mode & 07777;
}

}  // namespace gpuscope::control::testing
