#include "collector/control/control_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "collector/control/unix_socket.h"
#include "core/error.h"

namespace gpuscope::control {

namespace {

// How long a connected client may take to send its request before it is dropped (control_server.h).
constexpr int kRequestWaitMs = 1000;
constexpr int kListenBacklog = 16;

// The file at PATH, or nullopt when there is none.
std::optional<struct stat> fileAt(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return std::nullopt;
  return info;
}

// Makes PATH free to bind: a stale socket (its collector was killed) is removed; a live one, or a file
// that is not a socket, is refused.
void claimSocketPath(const std::string& path) {
  std::optional<struct stat> existing = fileAt(path);
  if (!existing) return;
  std::string session = sessionNameOfSocket(path);
  if (!S_ISSOCK(existing->st_mode)) {
    throw TraceError(path + " is not a socket: gpuscope will not replace it with session " + session + "'s");
  }
  if (probeListener(path) == ListenerProbe::Listening) {
    throw TraceError("a session named " + session + " is already running");
  }
  ::unlink(path.c_str());
}

Reply failure(std::string error) {
  Reply reply;
  reply.error = std::move(error);
  return reply;
}

// Sends REPLY on CONNECTION without waiting and without SIGPIPE: a client that went away, or stopped
// reading, only loses its own answer.
void sendReply(int connection, const Reply& reply) {
  std::string message = encode(reply);
  if (message.size() > kMaxMessageBytes) {
    // Only a status with very many files gets this long: the newest files matter most, so the oldest go.
    Reply shorter = reply;
    auto& files = shorter.status.files;
    while (message.size() > kMaxMessageBytes && !files.empty()) {
      files.erase(files.begin(), files.begin() + static_cast<std::ptrdiff_t>((files.size() + 1) / 2));
      message = encode(shorter);
    }
    if (message.size() > kMaxMessageBytes) {
      message = encode(failure("the session's reply is too long to send"));
    }
  }
  ::send(connection, message.data(), message.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

void refuse(int connection, std::string error) { sendReply(connection, failure(std::move(error))); }

Reply handled(const ControlServer::Handler& handler, const Request& request) {
  try {
    return handler(request);
  } catch (const std::exception& error) {
    return failure(error.what());
  } catch (...) {
    return failure("the session failed to answer the request");
  }
}

void closeIfOpen(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

ControlServer::ControlServer(std::string path, Handler handler) : path_(std::move(path)), handler_(std::move(handler)) {
  checkSocketPathLength(path_);
  claimSocketPath(path_);
  listener_ = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listener_ < 0) throw TraceError("cannot open the control socket " + path_ + ": " + errnoText(errno));
  try {
    bindOwnSocket();
    if (::listen(listener_, kListenBacklog) != 0 || ::pipe2(wake_, O_CLOEXEC) != 0) {
      throw TraceError("cannot listen on the control socket " + path_ + ": " + errnoText(errno));
    }
    thread_ = std::thread([this] { run(); });
  } catch (...) {
    releaseSocket();
    throw;
  }
}

ControlServer::~ControlServer() {
  if (thread_.joinable()) {
    char wake = 1;
    while (::write(wake_[1], &wake, 1) < 0 && errno == EINTR) {
    }
    thread_.join();
  }
  releaseSocket();
}

void ControlServer::bindOwnSocket() {
  sockaddr_un address = socketAddress(path_);
  if (::bind(listener_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    if (errno == EADDRINUSE) throw TraceError("a session named " + sessionNameOfSocket(path_) + " is already running");
    throw TraceError("cannot create the control socket " + path_ + ": " + errnoText(errno));
  }
  std::optional<struct stat> bound = fileAt(path_);
  if (!bound) throw TraceError("the control socket " + path_ + " disappeared as it was created");
  boundDevice_ = bound->st_dev;
  boundInode_ = bound->st_ino;
  // chmod after bind rather than umask around it: umask is the whole process's, and the program's other
  // threads create files too. Until the chmod, the control directory (0700) keeps others out.
  if (::chmod(path_.c_str(), 0600) != 0) {
    throw TraceError("cannot make the control socket " + path_ + " private: " + errnoText(errno));
  }
}

void ControlServer::releaseSocket() {
  closeIfOpen(listener_);
  closeIfOpen(wake_[0]);
  closeIfOpen(wake_[1]);
  // Only our own socket: a session started after us under the same name may have replaced it.
  std::optional<struct stat> current = fileAt(path_);
  if (boundInode_ != 0 && current && current->st_dev == boundDevice_ && current->st_ino == boundInode_) {
    ::unlink(path_.c_str());
  }
  boundInode_ = 0;
}

void ControlServer::run() {
  pollfd watched[2] = {{listener_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
  for (;;) {
    if (::poll(watched, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (watched[1].revents != 0) return;
    if (watched[0].revents == 0) continue;
    int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) {
      // Out of descriptors: wait a little rather than spin on a backlog we cannot take from.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      continue;
    }
    serve(connection);
    ::close(connection);
  }
}

void ControlServer::serve(int connection) {
  ucred peer{};
  socklen_t peerSize = sizeof peer;
  if (::getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &peerSize) != 0) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // Before reading anything: another user gets no further than this, whatever the verb.
  if (peer.uid != ::geteuid()) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    refuse(connection, "refused: this session belongs to uid " + std::to_string(::geteuid()));
    return;
  }
  std::string problem;
  std::optional<Request> request = readRequest(connection, problem);
  if (!request) {
    // Counted before the client hears of it, so that a client who got the refusal sees it counted.
    refused_.fetch_add(1, std::memory_order_relaxed);
    if (!problem.empty()) refuse(connection, problem);
    return;
  }
  Reply reply = handled(handler_, *request);
  answered_.fetch_add(1, std::memory_order_relaxed);
  sendReply(connection, reply);
}

std::optional<Request> ControlServer::readRequest(int connection, std::string& problem) {
  // The wake pipe too, so that a silent client does not hold up the destructor.
  pollfd watched[2] = {{connection, POLLIN, 0}, {wake_[0], POLLIN, 0}};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRequestWaitMs);
  int polled;
  do {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    polled = ::poll(watched, 2, static_cast<int>(std::max<int64_t>(left.count(), 0)));
  } while (polled < 0 && errno == EINTR);
  if (polled <= 0 || watched[1].revents != 0) {
    if (polled == 0) problem = "the request did not arrive within a second";
    return std::nullopt;
  }
  // One byte more than a request may have, and MSG_TRUNC: recv then returns the message's real length,
  // so an oversized one is known as such without reading the rest of it.
  auto buffer = std::make_unique<char[]>(kMaxMessageBytes + 1);
  ssize_t length = ::recv(connection, buffer.get(), kMaxMessageBytes + 1, MSG_TRUNC | MSG_DONTWAIT);
  if (length < 0) return std::nullopt;
  size_t kept = std::min(static_cast<size_t>(length), kMaxMessageBytes + 1);
  return decodeRequest(std::string_view(buffer.get(), kept), problem);
}

}  // namespace gpuscope::control
