#pragma once
// What the client (control_channel.cpp) and the server (control_server.cpp) both do with a Unix socket
// path: its address, its session's name, and whether anyone listens there. Private to collector/control.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.h"

namespace gpuscope::control {

// strerror(ERROR) as the end of one of our sentences ("permission denied").
inline std::string errnoText(int error) {
  std::string text = std::strerror(error);
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z' && (text.size() < 2 || !(text[1] >= 'A' && text[1] <= 'Z'))) {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

// The session a socket path belongs to: its file name without ".sock".
inline std::string sessionNameOfSocket(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > 5 && name.ends_with(".sock")) name.resize(name.size() - 5);
  return name;
}

// Throws unless PATH fits a sockaddr_un (with its terminating NUL).
inline void checkSocketPathLength(const std::string& path) {
  constexpr size_t kMaxPathBytes = sizeof(sockaddr_un::sun_path) - 1;
  if (path.empty() || path.size() > kMaxPathBytes) {
    throw TraceError("the socket path " + path + " is longer than the " + std::to_string(kMaxPathBytes) +
                     " bytes a Unix socket path may have");
  }
}

// PATH's address; the caller has checked its length.
inline sockaddr_un socketAddress(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.data(), path.size());
  return address;
}

enum class ListenerProbe { Nobody, Listening };

// Whether something accepts connections at PATH. Only a refused connection or a missing file means
// nobody: a full backlog (EAGAIN) or a permission problem means a live owner we must leave alone.
inline ListenerProbe probeListener(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return ListenerProbe::Listening;
  sockaddr_un address = socketAddress(path);
  int result = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  int error = errno;
  ::close(fd);
  if (result != 0 && (error == ECONNREFUSED || error == ENOENT)) return ListenerProbe::Nobody;
  return ListenerProbe::Listening;
}

}  // namespace gpuscope::control
