#pragma once
// The shared-memory layout one recorded process writes and the daemon reads: a file of rings.
//
// A process maps one file, <session dir>/<pid>-<seq>.ring, laid out as
//   RingFileHeader | RingControl[ringCount] | ring data[ringCount] (ringBytes each).
// Ring 0 is shared by every thread of the process under a process-local lock; it also carries the
// definitions (strings, NVTX domains and registered strings) that records in other rings refer to.
// Rings 1.. are claimed by one thread each, so their producer never locks.
//
// Each ring is single-producer, single-consumer. head and tail count bytes since the start and
// only grow; a record never wraps: when it does not fit before the end of the data area, the
// producer writes a padding record up to the end and continues at offset 0. When fewer bytes than
// a RecordHeader remain (8, since records are 8-aligned), no header fits: the producer skips them
// without writing, and the reader, at an offset with less than a header's room, skips to 0 too.
// The producer publishes a record with a release store of head; the daemon reads up to head with an acquire load and
// publishes its progress in tail. Because the file lives on tmpfs and is mapped shared, what a
// process published survives its crash or SIGKILL: the daemon drains the rings after the process
// died and then deletes the file.
//
// Everything the daemon reads from a ring is untrusted (a crashing program may scribble on it): it
// checks every size and offset and never follows a pointer.
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpuscope::transport {

inline constexpr uint64_t kRingFileMagic = 0x314752535053'5047ull;  // "GPSPSRG1", little-endian
inline constexpr uint32_t kRingFormatVersion = 1;
inline constexpr uint32_t kRecordAlign = 8;
// The header of every record; sizeBytes includes it and is a multiple of kRecordAlign.
struct RecordHeader {
  uint32_t sizeBytes;
  uint16_t type;  // RecordType
  uint16_t aux;   // type-specific (the OS-runtime function id, the CUDA API kind, ...)
  uint32_t tid;   // the OS thread id the record is about
  uint32_t reserved;
};
static_assert(sizeof(RecordHeader) == 16);

// Per-ring indexes, each on its own cache line so the producer and the daemon do not share one.
struct RingControl {
  alignas(64) std::atomic<uint64_t> head;     // bytes published by the producer
  alignas(64) std::atomic<uint64_t> tail;     // bytes consumed by the daemon
  alignas(64) std::atomic<uint64_t> dropped;  // records the producer dropped because the ring was full
  std::atomic<uint32_t> claimed;              // 1 while a thread owns this ring (rings 1..)
  std::atomic<uint32_t> ownerTid;             // informational
  std::atomic<uint32_t> allocated;            // 1 once the ring's pages are reserved on tmpfs
};
static_assert(sizeof(RingControl) == 192);
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free,
              "the ring indexes are shared between processes and must be address-free atomics");

enum class ProcessState : uint32_t { Running = 1, Exited = 2 };

struct RingFileHeader {
  uint64_t magic;
  uint32_t version;
  uint32_t ringCount;
  uint64_t ringBytes;   // a power of two
  uint64_t dataOffset;  // where ring 0's data starts
  uint32_t pid;
  uint32_t ppid;
  uint64_t procStartTicks;               // field 22 of /proc/<pid>/stat: tells a reused pid apart
  uint64_t sequence;                     // unique per file in a session (pid + exec or fork generation)
  int64_t createdNs;                     // session clock
  std::atomic<uint32_t> state;           // ProcessState; Exited is set by a clean exit
  std::atomic<uint32_t> cudaState;       // CudaState, for the summary
  std::atomic<uint64_t> lostBeforeInit;  // records dropped because no ring could be mapped
  std::atomic<uint64_t> gateAck;         // the session gate generation whose close CUPTI was flushed for
  char reserved[4096 - 88];
};
static_assert(sizeof(RingFileHeader) == 4096);

// What CUDA tracing found in the process (RingFileHeader::cudaState).
enum class CudaState : uint32_t {
  NotLoaded = 0,    // the process never initialized CUDA
  Tracing = 1,      // CUPTI activity tracing is on
  CuptiBusy = 2,    // another profiler holds CUPTI
  CuptiFailed = 3,  // CUPTI could not be set up (see the diagnostic record)
};

constexpr uint64_t controlOffset(uint32_t ring) {
  return sizeof(RingFileHeader) + uint64_t{ring} * sizeof(RingControl);
}
constexpr uint64_t dataOffsetFor(uint32_t ringCount) {
  uint64_t end = controlOffset(ringCount);
  return (end + 4095) & ~uint64_t{4095};
}
constexpr uint64_t ringFileBytes(uint32_t ringCount, uint64_t ringBytes) {
  return dataOffsetFor(ringCount) + uint64_t{ringCount} * ringBytes;
}

}  // namespace gpuscope::transport
