#include "collector/transport/ring_writer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <new>

namespace gpuscope::transport {
namespace {

// Raw system calls: inside the target, the libc wrappers of open, close, mmap ... are interposed.
int sysOpen(const char* path, int flags, mode_t mode) {
  return static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, flags, mode));
}
void sysClose(int fd) { syscall(SYS_close, fd); }
bool sysAllocate(int fd, uint64_t offset, uint64_t length) {
  long result = syscall(SYS_fallocate, fd, 0, static_cast<off_t>(offset), static_cast<off_t>(length));
  if (result == 0) return true;
  if (errno != EOPNOTSUPP) return false;
  // Not tmpfs: the file is already sized; let its pages come on first touch.
  return true;
}
void* sysMap(uint64_t bytes, int fd) {
  long result = syscall(SYS_mmap, nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (result < 0 && result > -4096) return MAP_FAILED;
  return reinterpret_cast<void*>(result);
}
void sysUnmap(void* address, uint64_t bytes) { syscall(SYS_munmap, address, bytes); }
// Waiting for the daemon to drain: yield first (it usually frees room within microseconds), then
// sleep in short steps. Returns the nanoseconds this step is counted as.
int64_t sysPause(uint32_t attempt) {
  if (attempt < 64) {
    syscall(SYS_sched_yield);
    return 1'000;
  }
  timespec pause{0, 50'000};
  syscall(SYS_nanosleep, &pause, nullptr);
  return 50'000;
}

uint64_t roundUpPowerOfTwo(uint64_t value) {
  uint64_t result = 4096;
  while (result < value && result < (uint64_t{1} << 30)) result <<= 1;
  return result;
}

}  // namespace

RingFileWriter* RingFileWriter::create(const char* dir, const RingFileConfig& config, uint32_t pid, uint32_t ppid,
                                       uint64_t procStartTicks, int64_t nowNs) {
  uint32_t ringCount = config.ringCount < 1 ? 1 : (config.ringCount > 1024 ? 1024 : config.ringCount);
  uint64_t ringBytes = roundUpPowerOfTwo(config.ringBytes);
  uint64_t fileBytes = ringFileBytes(ringCount, ringBytes);
  uint64_t sequence = static_cast<uint64_t>(nowNs);

  char finalPath[4096];
  char tempPath[4096];
  int n1 = std::snprintf(finalPath, sizeof finalPath, "%s/%u-%llu.ring", dir, pid,
                         static_cast<unsigned long long>(sequence));
  int n2 =
      std::snprintf(tempPath, sizeof tempPath, "%s/%u-%llu.tmp", dir, pid, static_cast<unsigned long long>(sequence));
  if (n1 <= 0 || n2 <= 0 || static_cast<size_t>(n1) >= sizeof finalPath || static_cast<size_t>(n2) >= sizeof tempPath) {
    errno = ENAMETOOLONG;
    return nullptr;
  }
  int fd = sysOpen(tempPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  auto fail = [&](int error) -> RingFileWriter* {
    sysClose(fd);
    syscall(SYS_unlinkat, AT_FDCWD, tempPath, 0);
    errno = error;
    return nullptr;
  };
  if (syscall(SYS_ftruncate, fd, static_cast<off_t>(fileBytes)) != 0) return fail(errno);
  // The header, the controls and ring 0 are reserved now; other rings when a thread claims them.
  uint64_t dataOffset = dataOffsetFor(ringCount);
  if (!sysAllocate(fd, 0, dataOffset + ringBytes)) return fail(errno);
  void* mapped = sysMap(fileBytes, fd);
  if (mapped == MAP_FAILED) return fail(errno);
  struct stat info {};
  if (syscall(SYS_fstat, fd, &info) != 0) {
    int error = errno;
    sysUnmap(mapped, fileBytes);
    return fail(error);
  }

  auto* writer = new (std::nothrow) RingFileWriter();
  if (!writer) {
    sysUnmap(mapped, fileBytes);
    return fail(ENOMEM);
  }
  writer->fd_ = fd;
  writer->fileDev_ = info.st_dev;
  writer->fileIno_ = info.st_ino;
  writer->base_ = static_cast<uint8_t*>(mapped);
  writer->mappedBytes_ = fileBytes;
  writer->header_ = reinterpret_cast<RingFileHeader*>(writer->base_);
  writer->controls_ = reinterpret_cast<RingControl*>(writer->base_ + controlOffset(0));
  writer->data_ = writer->base_ + dataOffset;
  writer->ringCount_ = ringCount;
  writer->ringBytes_ = ringBytes;
  writer->consumerPid_ = config.consumerPid;

  // The file is fresh (zero-filled): the atomics start at 0. Fill the header, then publish it.
  RingFileHeader& header = *writer->header_;
  header.version = kRingFormatVersion;
  header.ringCount = ringCount;
  header.ringBytes = ringBytes;
  header.dataOffset = dataOffset;
  header.pid = pid;
  header.ppid = ppid;
  header.procStartTicks = procStartTicks;
  header.sequence = sequence;
  header.createdNs = nowNs;
  header.state.store(static_cast<uint32_t>(ProcessState::Running), std::memory_order_relaxed);
  writer->controls_[0].allocated.store(1, std::memory_order_relaxed);
  writer->controls_[0].claimed.store(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  header.magic = kRingFileMagic;
  if (syscall(SYS_renameat, AT_FDCWD, tempPath, AT_FDCWD, finalPath) != 0) {
    int error = errno;
    delete writer;
    syscall(SYS_unlinkat, AT_FDCWD, tempPath, 0);
    errno = error;
    return nullptr;
  }
  return writer;
}

RingFileWriter::~RingFileWriter() {
  if (base_) sysUnmap(base_, mappedBytes_);
  if (fd_ >= 0) sysClose(fd_);
}

bool RingFileWriter::reserveRing(uint32_t ring) {
  RingControl& control = controls_[ring];
  if (control.allocated.load(std::memory_order_acquire)) return true;
  // The program may have closed our descriptor and reused the number: check it is still our file.
  struct stat info {};
  if (syscall(SYS_fstat, fd_, &info) != 0 || info.st_dev != fileDev_ || info.st_ino != fileIno_) return false;
  if (!sysAllocate(fd_, header_->dataOffset + uint64_t{ring} * ringBytes_, ringBytes_)) return false;
  control.allocated.store(1, std::memory_order_release);
  return true;
}

bool RingFileWriter::consumerAlive() const {
  if (syscall(SYS_kill, static_cast<pid_t>(consumerPid_), 0) == 0) return true;
  return errno == EPERM;
}

uint32_t RingFileWriter::claimRing(uint32_t tid) {
  for (uint32_t ring = 1; ring < ringCount_; ++ring) {
    uint32_t expected = 0;
    if (controls_[ring].claimed.load(std::memory_order_relaxed) != 0) continue;
    if (!controls_[ring].claimed.compare_exchange_strong(expected, 1, std::memory_order_acquire)) continue;
    if (!reserveRing(ring)) {
      // No room on tmpfs (or the descriptor is gone): keep the ring claimed so nobody retries it.
      return 0;
    }
    controls_[ring].ownerTid.store(tid, std::memory_order_relaxed);
    return ring;
  }
  return 0;
}

void RingFileWriter::releaseRing(uint32_t ring) {
  if (ring == 0 || ring >= ringCount_) return;
  controls_[ring].ownerTid.store(0, std::memory_order_relaxed);
  controls_[ring].claimed.store(0, std::memory_order_release);
}

bool RingFileWriter::tryWrite(uint32_t ring, RecordType type, uint16_t aux, uint32_t tid, const void* body,
                              uint32_t bodyBytes, const std::string_view* texts, size_t textCount, uint32_t size) {
  RingControl& control = controls_[ring];
  uint8_t* data = data_ + uint64_t{ring} * ringBytes_;
  uint64_t head = control.head.load(std::memory_order_relaxed);
  uint64_t tail = control.tail.load(std::memory_order_acquire);
  uint64_t offset = head & (ringBytes_ - 1);
  uint64_t padding = offset + size > ringBytes_ ? ringBytes_ - offset : 0;
  if (head + padding + size - tail > ringBytes_) return false;
  if (padding) {
    // Fewer bytes than a header left before the end (8, as records are 8-aligned): no header fits,
    // and writing one would run into the next ring. The reader skips such a tail without one.
    if (padding >= sizeof(RecordHeader)) {
      auto* pad = reinterpret_cast<RecordHeader*>(data + offset);
      pad->sizeBytes = static_cast<uint32_t>(padding);
      pad->type = static_cast<uint16_t>(RecordType::Padding);
      pad->aux = 0;
      pad->tid = 0;
      pad->reserved = 0;
    }
    head += padding;
    offset = 0;
  }
  uint8_t* out = data + offset;
  RecordHeader recordHeader{size, static_cast<uint16_t>(type), aux, tid, 0};
  std::memcpy(out, &recordHeader, sizeof recordHeader);
  size_t at = sizeof recordHeader;
  if (bodyBytes) std::memcpy(out + at, body, bodyBytes);
  at += bodyBytes;
  for (size_t i = 0; i < textCount; ++i) {
    size_t length = texts[i].size() < kMaxTextBytes ? texts[i].size() : kMaxTextBytes;
    if (length) std::memcpy(out + at, texts[i].data(), length);
    at += length;
  }
  if (at < size) std::memset(out + at, 0, size - at);
  control.head.store(head + size, std::memory_order_release);
  return true;
}

bool RingFileWriter::write(uint32_t ring, RecordType type, uint16_t aux, uint32_t tid, const void* body,
                           uint32_t bodyBytes, const std::string_view* texts, size_t textCount, int64_t waitNs) {
  if (ring >= ringCount_) ring = 0;
  uint64_t textBytes = 0;
  for (size_t i = 0; i < textCount; ++i) textBytes += texts[i].size() < kMaxTextBytes ? texts[i].size() : kMaxTextBytes;
  uint32_t size = recordSize(bodyBytes, textBytes);
  if (size > ringBytes_ / 2) {
    controls_[ring].dropped.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  bool whileConsumerLives = waitNs == kWaitWhileConsumerLives;
  if (whileConsumerLives && consumerPid_ == 0) waitNs = kWaitWithoutConsumerNs;
  int64_t waited = 0;
  for (uint32_t attempt = 0;; ++attempt) {
    bool written;
    if (ring == 0) {
      while (sharedLock_.test_and_set(std::memory_order_acquire)) syscall(SYS_sched_yield);
      written = tryWrite(0, type, aux, tid, body, bodyBytes, texts, textCount, size);
      sharedLock_.clear(std::memory_order_release);
    } else {
      written = tryWrite(ring, type, aux, tid, body, bodyBytes, texts, textCount, size);
    }
    if (written) return true;
    if (whileConsumerLives && consumerPid_ != 0) {
      if (attempt % 256 == 255 && !consumerAlive()) break;
    } else if (waited >= waitNs) {
      break;
    }
    waited += sysPause(attempt);
  }
  controls_[ring].dropped.fetch_add(1, std::memory_order_relaxed);
  return false;
}

}  // namespace gpuscope::transport
