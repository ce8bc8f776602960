#pragma once
// ControlServer: a session's end of the control channel. A thread of its own accepts one connection at
// a time on a SOCK_SEQPACKET Unix socket, checks the peer with SO_PEERCRED (another uid is refused on
// every verb, before its message is read), reads one message (refused when malformed or longer than
// kMaxMessageBytes), calls the handler and sends its reply. A client that connects and sends nothing is
// dropped after a second. Nothing a client sends can stop the server or reach the program.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "collector/control/control_protocol.h"

namespace gpuscope::control {

class ControlServer {
 public:
  using Handler = std::function<Reply(const Request&)>;
  // Binds PATH (mode 0600). Throws TraceError with one sentence when a live session already listens
  // there; a stale socket file is replaced. The handler runs on the server's thread.
  ControlServer(std::string path, Handler handler);
  // Stops the thread and removes the socket file.
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  const std::string& path() const { return path_; }
  uint64_t answered() const { return answered_.load(std::memory_order_relaxed); }
  // Requests refused: another user's, malformed, oversized or cut short.
  uint64_t refused() const { return refused_.load(std::memory_order_relaxed); }

 private:
  void bindOwnSocket();
  void releaseSocket();  // closes what the constructor opened; removes the socket file if it is still ours
  void run();
  void serve(int connection);
  // The connection's request; nullopt with PROBLEM set to the sentence to refuse it with (empty: the
  // client is gone or the server is stopping, nothing to say).
  std::optional<Request> readRequest(int connection, std::string& problem);

  std::string path_;
  Handler handler_;
  int listener_ = -1;
  int wake_[2] = {-1, -1};  // a pipe the destructor writes to end run()'s poll
  dev_t boundDevice_ = 0;   // the socket file as bound, so that the destructor removes no one else's
  ino_t boundInode_ = 0;
  std::atomic<uint64_t> answered_{0};
  std::atomic<uint64_t> refused_{0};
  std::thread thread_;
};

}  // namespace gpuscope::control
