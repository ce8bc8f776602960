#pragma once
// LaneAccumulator: the events of one track, as a table scan delivers them, gathered into lanes
// with as little memory as the lanes themselves need.
//
// Tables list a track's events almost always in lane order (by start, the enclosing range first).
// While they come so, each event goes straight into the lane of its depth, into fixed-size chunks
// that never move; finish() copies the chunks into exactly sized columns, freeing each chunk as
// it goes. So the scan's peak is the trace itself plus one chunk per lane, where collecting whole
// events first and then sorting them needed about twice the trace. An event out of order turns
// the track back into raw events, sorted and laid out by buildLanes at the end.
#include <memory>
#include <new>
#include <vector>

#include "core/model/lane_builder.h"

namespace gpuscope {

class LaneAccumulator {
 public:
  explicit LaneAccumulator(bool keepStyle) : keepStyle_(keepStyle) {}

  void add(const RawEvent& event);
  // The lanes by depth. Throws TraceError past kMaxLanes. The accumulator is empty afterwards.
  std::vector<Lane> finish();

  bool inLaneOrder() const { return raw_.empty() && ordered_; }

 private:
  static constexpr size_t kChunkEvents = 1 << 14;  // 512 KiB
  // Chunks are mapped from the system, not taken from malloc, so that each one freed after copyOut
  // leaves the process at once: malloc would keep the freed chunks of a scan thread's arena
  // resident until the end of the load, beside the columns they were copied into.
  struct Unmap {
    void operator()(RawEvent* chunk) const;
  };
  using Chunk = std::unique_ptr<RawEvent[], Unmap>;
  static Chunk mapChunk();
  struct ChunkedLane {
    std::vector<Chunk> chunks;
    size_t size = 0;
  };

  bool followsLast(const RawEvent& event) const;
  void place(const RawEvent& event);
  void becomeRaw();
  Lane copyOut(ChunkedLane& chunked) const;

  bool keepStyle_;
  bool ordered_ = true;
  bool any_ = false;
  RawEvent last_{};
  std::vector<TimeNs> laneEnd_;  // when each lane's last event ends
  size_t open_ = 0;              // lanes below this one still hold an event open at last_.start
  std::vector<ChunkedLane> lanes_;
  std::vector<RawEvent> raw_;  // once an event came out of order
};

}  // namespace gpuscope
