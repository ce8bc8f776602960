#include "collector/transport/session_gate.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace gpuscope::transport {

std::string gatePath(const std::string& sessionDir) { return sessionDir + "/gate"; }

namespace {

void copyText(char* destination, size_t capacity, const std::string& text) {
  size_t length = std::min(text.size(), capacity - 1);
  std::memcpy(destination, text.data(), length);
  destination[length] = '\0';
}

}  // namespace

SessionGateFile::SessionGateFile(const std::string& sessionDir, CaptureTrigger trigger, CaptureRangeEnd rangeEnd,
                                 int32_t ranges, const std::string& nvtxName, const std::string& nvtxDomain) {
  std::string path = gatePath(sessionDir);
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot create the session gate " + path + ": " + std::strerror(errno));
  bool sized = ftruncate(fd, sizeof(SessionGate)) == 0;
  void* mapped = sized ? mmap(nullptr, sizeof(SessionGate), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  int error = errno;
  ::close(fd);
  if (mapped == MAP_FAILED)
    throw std::runtime_error("cannot map the session gate " + path + ": " + std::strerror(error));
  // The file is zero-filled: the atomics start closed at generation 0.
  gate_ = static_cast<SessionGate*>(mapped);
  gate_->version = kSessionGateVersion;
  gate_->trigger = static_cast<uint32_t>(trigger);
  gate_->rangeEnd = static_cast<uint32_t>(rangeEnd);
  gate_->rangesLeft.store(ranges, std::memory_order_relaxed);
  copyText(gate_->nvtxName, sizeof gate_->nvtxName, nvtxName);
  copyText(gate_->nvtxDomain, sizeof gate_->nvtxDomain, nvtxDomain);
  // The magic last: a process that maps the file before this sees no gate and records as before.
  std::atomic_ref<uint64_t>(gate_->magic).store(kSessionGateMagic, std::memory_order_release);
}

SessionGateFile::~SessionGateFile() {
  if (gate_) munmap(gate_, sizeof(SessionGate));
}

SessionGate* mapSessionGate(const char* sessionDir) {
  char path[4096];
  int written = std::snprintf(path, sizeof path, "%s/gate", sessionDir);
  if (written <= 0 || static_cast<size_t>(written) >= sizeof path) return nullptr;
  int fd = ::open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat info {};
  bool whole = fstat(fd, &info) == 0 && info.st_size >= static_cast<off_t>(sizeof(SessionGate));
  void* mapped = whole ? mmap(nullptr, sizeof(SessionGate), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  ::close(fd);
  if (mapped == MAP_FAILED) return nullptr;
  auto* gate = static_cast<SessionGate*>(mapped);
  if (std::atomic_ref<uint64_t>(gate->magic).load(std::memory_order_acquire) != kSessionGateMagic ||
      gate->version != kSessionGateVersion) {
    munmap(mapped, sizeof(SessionGate));
    return nullptr;
  }
  return gate;
}

namespace {

// Holds GATE's `changing` flag for one open or close.
class GateTurn {
 public:
  explicit GateTurn(SessionGate& gate) : gate_(gate) {
    uint32_t idle = 0;
    while (!gate_.changing.compare_exchange_weak(idle, 1, std::memory_order_acquire)) {
      idle = 0;
      sched_yield();
    }
  }
  ~GateTurn() { gate_.changing.store(0, std::memory_order_release); }
  GateTurn(const GateTurn&) = delete;
  GateTurn& operator=(const GateTurn&) = delete;

 private:
  SessionGate& gate_;
};

}  // namespace

bool waitForPreviousWindow(const SessionGate& gate, int64_t timeoutNs) {
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    uint64_t generation = gate.generation.load(std::memory_order_acquire);
    if (generation == 0 || gateIsOpen(generation) || gate.finished.load(std::memory_order_acquire) >= generation)
      return true;
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t waited = (now.tv_sec - start.tv_sec) * 1'000'000'000 + (now.tv_nsec - start.tv_nsec);
    if (waited > timeoutNs) return false;
    timespec pause{0, 1'000'000};
    nanosleep(&pause, nullptr);
  }
}

bool openGate(SessionGate& gate, int64_t now) {
  GateTurn turn(gate);
  if (gateIsOpen(gate.generation.load(std::memory_order_relaxed))) return false;
  gate.openedAt.store(now, std::memory_order_relaxed);
  gate.generation.fetch_add(1, std::memory_order_release);
  gate.open.store(1, std::memory_order_release);
  return true;
}

bool closeGate(SessionGate& gate, int64_t now, WindowEndReason reason) {
  GateTurn turn(gate);
  if (!gateIsOpen(gate.generation.load(std::memory_order_relaxed))) return false;
  gate.open.store(0, std::memory_order_release);
  gate.closedAt.store(now, std::memory_order_relaxed);
  gate.endReason.store(static_cast<uint32_t>(reason), std::memory_order_relaxed);
  gate.generation.fetch_add(1, std::memory_order_release);
  return true;
}

}  // namespace gpuscope::transport
