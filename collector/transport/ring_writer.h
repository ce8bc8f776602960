#pragma once
// RingFileWriter: the producer side of one process's ring file (see ring_format.h).
//
// Used inside the recorded process, so it calls the kernel directly (never the interposed libc
// wrappers), allocates nothing after create(), and reports failure by return value.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "collector/transport/records.h"
#include "collector/transport/ring_format.h"

namespace gpuscope::transport {

struct RingFileConfig {
  uint32_t ringCount = 65;       // ring 0 (shared) + one per thread
  uint64_t ringBytes = 1 << 20;  // per ring; rounded up to a power of two
  // The process that drains the rings (the `record` daemon); 0 when unknown. A writer told to wait
  // while the consumer lives gives up once this process is gone, so a killed recorder never hangs
  // the program.
  uint32_t consumerPid = 0;
};

// write()'s WAITNS for back-pressure: wait for room as long as the consumer process lives (with no
// consumerPid, at most kWaitWithoutConsumerNs).
inline constexpr int64_t kWaitWhileConsumerLives = -1;
inline constexpr int64_t kWaitWithoutConsumerNs = 10'000'000'000;

class RingFileWriter {
 public:
  // Creates DIR/<pid>-<sequence>.ring, maps it and publishes it (renamed into place once its header
  // is complete). Returns nullptr and sets errno when the directory is unusable or tmpfs is full.
  static RingFileWriter* create(const char* dir, const RingFileConfig& config, uint32_t pid, uint32_t ppid,
                                uint64_t procStartTicks, int64_t nowNs);
  // Unmaps the file (it stays for the daemon) and closes the descriptor.
  ~RingFileWriter();
  RingFileWriter(const RingFileWriter&) = delete;
  RingFileWriter& operator=(const RingFileWriter&) = delete;

  RingFileHeader& header() { return *header_; }
  uint32_t ringCount() const { return ringCount_; }

  // A free ring for one thread (its pages reserved first), or 0, the shared ring, when none is left.
  uint32_t claimRing(uint32_t tid);
  void releaseRing(uint32_t ring);

  // Appends one record: HEADER fields, BODY, then TEXTS back to back. Ring 0 is written under a
  // lock; rings 1.. only by the thread that claimed them. When the ring is full the writer waits up
  // to WAITNS for room (kWaitWhileConsumerLives: until the consumer drained it or is gone); a record
  // that still finds no room is dropped and counted (false).
  bool write(uint32_t ring, RecordType type, uint16_t aux, uint32_t tid, const void* body, uint32_t bodyBytes,
             const std::string_view* texts = nullptr, size_t textCount = 0, int64_t waitNs = 0);

  // Counts a record lost before it reached a ring (a reentrant call, for instance).
  void countLost() { header_->lostBeforeInit.fetch_add(1, std::memory_order_relaxed); }

 private:
  RingFileWriter() = default;
  bool reserveRing(uint32_t ring);
  bool consumerAlive() const;
  bool tryWrite(uint32_t ring, RecordType type, uint16_t aux, uint32_t tid, const void* body, uint32_t bodyBytes,
                const std::string_view* texts, size_t textCount, uint32_t size);

  int fd_ = -1;
  uint64_t fileDev_ = 0;
  uint64_t fileIno_ = 0;
  uint8_t* base_ = nullptr;
  uint64_t mappedBytes_ = 0;
  RingFileHeader* header_ = nullptr;
  RingControl* controls_ = nullptr;
  uint8_t* data_ = nullptr;
  uint32_t ringCount_ = 0;
  uint64_t ringBytes_ = 0;
  uint32_t consumerPid_ = 0;
  std::atomic_flag sharedLock_ = ATOMIC_FLAG_INIT;
};

// The size of a record with BODYBYTES of body and TEXTBYTES of text, header included and aligned.
constexpr uint32_t recordSize(uint32_t bodyBytes, uint64_t textBytes) {
  uint64_t size = sizeof(RecordHeader) + bodyBytes + textBytes;
  return static_cast<uint32_t>((size + kRecordAlign - 1) & ~uint64_t{kRecordAlign - 1});
}

}  // namespace gpuscope::transport
