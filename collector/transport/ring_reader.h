#pragma once
// RingFileReader: the daemon's side of one process's ring file. Reads what the process published,
// even after it died, and never trusts what it reads.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collector/transport/records.h"
#include "collector/transport/ring_format.h"

namespace gpuscope::transport {

// One record as read from a ring; BODY points into the mapping and is valid until the next drain.
struct RecordView {
  RecordType type;
  uint16_t aux;
  uint32_t tid;
  const uint8_t* body;
  uint32_t bodyBytes;
};

class RingFileReader {
 public:
  // Maps PATH and checks its header; nullptr with a reason in *error when it is not a ring file.
  static std::unique_ptr<RingFileReader> open(const std::string& path, std::string* error);
  ~RingFileReader();
  RingFileReader(const RingFileReader&) = delete;
  RingFileReader& operator=(const RingFileReader&) = delete;

  const std::string& path() const { return path_; }
  uint32_t pid() const { return pid_; }
  uint32_t ppid() const { return ppid_; }
  uint64_t procStartTicks() const { return procStartTicks_; }
  uint64_t sequence() const { return sequence_; }
  uint32_t ringCount() const { return ringCount_; }
  ProcessState state() const;
  CudaState cudaState() const;
  // The session gate generation whose close the process's CUDA worker flushed CUPTI for (0: none yet).
  uint64_t gateAck() const;

  // The published end of RING, to drain up to later.
  uint64_t head(uint32_t ring) const;
  // Hands every record of RING published before LIMIT to SINK (callable as sink(const RecordView&)),
  // then frees the space for the producer. Damaged records end the drain of that ring: the rest of
  // what is published is skipped and counted in corrupt(). Returns the number of records read.
  template <typename Sink>
  size_t drain(uint32_t ring, uint64_t limit, Sink&& sink);
  size_t drainAll(uint32_t ring, auto&& sink) { return drain(ring, head(ring), sink); }

  // Records the process dropped (full rings, reentrant calls) so far.
  uint64_t dropped() const;
  uint64_t corrupt() const { return corrupt_; }

 private:
  RingFileReader() = default;
  bool next(uint32_t ring, uint64_t& position, uint64_t limit, RecordView& view);
  void release(uint32_t ring, uint64_t position);

  std::string path_;
  uint8_t* base_ = nullptr;
  uint64_t mappedBytes_ = 0;
  const RingFileHeader* header_ = nullptr;
  RingControl* controls_ = nullptr;
  const uint8_t* data_ = nullptr;
  uint32_t ringCount_ = 0;
  uint64_t ringBytes_ = 0;
  uint32_t pid_ = 0;
  uint32_t ppid_ = 0;
  uint64_t procStartTicks_ = 0;
  uint64_t sequence_ = 0;
  uint64_t corrupt_ = 0;
};

template <typename Sink>
size_t RingFileReader::drain(uint32_t ring, uint64_t limit, Sink&& sink) {
  if (ring >= ringCount_) return 0;
  uint64_t position = controls_[ring].tail.load(std::memory_order_relaxed);
  size_t count = 0;
  RecordView view{};
  while (next(ring, position, limit, view)) {
    if (view.type != RecordType::Padding) {
      sink(view);
      ++count;
    }
  }
  release(ring, position);
  return count;
}

}  // namespace gpuscope::transport
