#include "collector/control/control_channel.h"

#include <dirent.h>
#include <fnmatch.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "collector/control/unix_socket.h"
#include "core/error.h"

namespace gpuscope::control {

namespace {

constexpr size_t kMaxSessionNameBytes = 80;
constexpr std::string_view kSocketSuffix = ".sock";

std::string refusedDirectory(const std::string& directory, const std::string& why) {
  return directory + " " + why + ": gpuscope will not use it for sessions";
}

// PATH without trailing slashes: lstat("link/") would follow the link it is meant to catch.
std::string withoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string defaultControlDirectory() {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  struct stat info {};
  if (runtime && *runtime && ::stat(runtime, &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::geteuid()) {
    return withoutTrailingSlashes(runtime) + "/gpuscope";
  }
  return "/tmp/gpuscope-" + std::to_string(::geteuid());
}

// Throws unless DIRECTORY is a directory (not a link to one) that only this user can enter: a socket in a
// directory someone else controls could be replaced by theirs, which would then hear our requests.
void checkOwnDirectory(const std::string& directory) {
  struct stat info {};
  if (::lstat(directory.c_str(), &info) != 0) {
    throw TraceError("cannot check the control directory " + directory + ": " + errnoText(errno));
  }
  if (S_ISLNK(info.st_mode)) throw TraceError(refusedDirectory(directory, "is a symbolic link"));
  if (!S_ISDIR(info.st_mode)) throw TraceError(refusedDirectory(directory, "is not a directory"));
  if (info.st_uid != ::geteuid()) {
    throw TraceError(refusedDirectory(directory, "belongs to uid " + std::to_string(info.st_uid) + ", not to you"));
  }
  if ((info.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    throw TraceError(refusedDirectory(directory, std::string("is open to other users (mode ") + mode + ")"));
  }
}

bool isSessionNameCharacter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         std::string_view("._@+-").find(c) != std::string_view::npos;
}

bool isSessionName(std::string_view name) {
  return !name.empty() && name.size() <= kMaxSessionNameBytes &&
         std::all_of(name.begin(), name.end(), isSessionNameCharacter);
}

std::string timeoutText(std::chrono::milliseconds timeout) {
  if (timeout.count() % 1000 == 0) return std::to_string(timeout.count() / 1000) + " s";
  return std::to_string(timeout.count()) + " ms";
}

// What a client got from one connection: a reply, or an error sentence.
class Exchange {
 public:
  Exchange(const std::string& path, std::chrono::milliseconds timeout)
      : path_(path),
        session_(sessionNameOfSocket(path)),
        timeout_(timeout),
        deadline_(std::chrono::steady_clock::now() + timeout) {}
  ~Exchange() {
    if (fd_ >= 0) ::close(fd_);
  }
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  void connect() {
    fd_ = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw TraceError("cannot reach session " + session_ + ": " + errnoText(errno));
    // connect() waits for room in a busy session's backlog, and send() for room in its buffer, at most
    // this long.
    timeval limit = toTimeval(timeout_);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockaddr_un address = socketAddress(path_);
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return;
    int error = errno;
    if (error == ENOENT || error == ECONNREFUSED) throw TraceError("session " + session_ + " is not running");
    if (error == EAGAIN || error == EWOULDBLOCK) throw notAnswered();
    throw TraceError("cannot reach session " + session_ + ": " + errnoText(error));
  }

  // Sends MESSAGE. A session that refuses us replies and closes without reading it: a failed send may
  // still leave its reply waiting, so only a send that timed out is an error here.
  void send(const std::string& message) {
    if (::send(fd_, message.data(), message.size(), MSG_NOSIGNAL) >= 0) return;
    if (errno == EAGAIN || errno == EWOULDBLOCK) throw notAnswered();
  }

  std::string receive() {
    pollfd ready{fd_, POLLIN, 0};
    int polled;
    do {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
      polled = ::poll(&ready, 1, static_cast<int>(std::clamp<int64_t>(left.count(), 0, INT32_MAX)));
    } while (polled < 0 && errno == EINTR);
    if (polled == 0) throw notAnswered();
    auto buffer = std::make_unique<char[]>(kMaxMessageBytes + 1);
    ssize_t received = ::recv(fd_, buffer.get(), kMaxMessageBytes + 1, MSG_DONTWAIT);
    // A session that closed without reading our request (it refused us) makes the first recv report
    // ECONNRESET, ahead of the reply it sent before closing: the reply is read by the next one.
    if (received < 0 && errno == ECONNRESET) received = ::recv(fd_, buffer.get(), kMaxMessageBytes + 1, MSG_DONTWAIT);
    if (received < 0 && errno != ECONNRESET && errno != EAGAIN && errno != EWOULDBLOCK) {
      throw TraceError("cannot read the reply of session " + session_ + ": " + errnoText(errno));
    }
    if (received <= 0) throw TraceError("session " + session_ + " closed the connection without answering");
    return std::string(buffer.get(), static_cast<size_t>(received));
  }

  Reply decoded(const std::string& message) const {
    std::string problem;
    std::optional<Reply> reply = decodeReply(message, problem);
    if (!reply) throw TraceError("session " + session_ + " sent a reply gpuscope cannot read (" + problem + ")");
    return *reply;
  }

 private:
  TraceError notAnswered() const {
    return TraceError("session " + session_ + " did not answer within " + timeoutText(timeout_));
  }

  static timeval toTimeval(std::chrono::milliseconds timeout) {
    timeval limit{};
    limit.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    limit.tv_usec = static_cast<suseconds_t>(timeout.count() % 1000 * 1000);
    if (limit.tv_sec == 0 && limit.tv_usec == 0) limit.tv_usec = 1;  // zero would mean "wait forever"
    return limit;
  }

  std::string path_;
  std::string session_;
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point deadline_;  // for the whole exchange, connect to reply
  int fd_ = -1;
};

}  // namespace

std::string controlDirectory() {
  const char* chosen = std::getenv("GPUSCOPE_CONTROL_DIR");
  std::string directory = chosen && *chosen ? withoutTrailingSlashes(chosen) : defaultControlDirectory();
  if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) {
    throw TraceError("cannot create the control directory " + directory + ": " + errnoText(errno));
  }
  checkOwnDirectory(directory);
  return directory;
}

std::string socketPath(const std::string& sessionName) {
  if (!isSessionName(sessionName)) {
    throw TraceError("\"" + printableMessage(sessionName.substr(0, kMaxSessionNameBytes + 1)) +
                     "\" cannot name a session: a name has 1 to 80 of the characters A-Z a-z 0-9 . _ @ + -");
  }
  std::string path = controlDirectory() + "/" + sessionName + std::string(kSocketSuffix);
  checkSocketPathLength(path);
  return path;
}

std::vector<Endpoint> findSessions(const std::string& pattern) {
  std::string directory = controlDirectory();
  std::unique_ptr<DIR, int (*)(DIR*)> listing(::opendir(directory.c_str()), ::closedir);
  if (!listing) throw TraceError("cannot list the sessions in " + directory + ": " + errnoText(errno));
  std::vector<Endpoint> found;
  while (const dirent* entry = ::readdir(listing.get())) {
    std::string_view file = entry->d_name;
    if (file.size() <= kSocketSuffix.size() || !file.ends_with(kSocketSuffix)) continue;
    std::string name(file.substr(0, file.size() - kSocketSuffix.size()));
    if (!isSessionName(name)) continue;
    if (!pattern.empty() && ::fnmatch(pattern.c_str(), name.c_str(), 0) != 0) continue;
    std::string path = directory + "/" + std::string(file);
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode)) continue;
    if (path.size() >= sizeof(sockaddr_un::sun_path)) continue;  // no client could reach it either
    if (probeListener(path) == ListenerProbe::Listening) {
      found.push_back({name, path});
    } else {
      ::unlink(path.c_str());  // a collector that was killed left it behind
    }
  }
  std::sort(found.begin(), found.end(), [](const Endpoint& a, const Endpoint& b) { return a.name < b.name; });
  return found;
}

Reply sendRequest(const std::string& path, const Request& request, std::chrono::milliseconds timeout) {
  checkSocketPathLength(path);
  Exchange exchange(path, timeout);
  exchange.connect();
  exchange.send(encode(request));
  return exchange.decoded(exchange.receive());
}

}  // namespace gpuscope::control
