#pragma once
// CorrelationIndex: the events of some tracks (the CUDA API calls, or the GPU work) ordered by
// (pid, correlationId), so that a launch finds its GPU work and GPU work its launch.
//
// Each indexed event is one uint32 (its position when the indexed lanes are laid end to end), not
// a copy of its key and place: the key is read back from the lane's correlation column. At 10M
// events this keeps the index at 4 bytes per event instead of 16, and building it needs no
// temporary copy of the keys, because each lane's events are merged in their correlation order.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

class CorrelationIndex {
 public:
  // Indexes every event with a correlation id (non-zero) in the tracks INCLUDE accepts.
  // Throws TraceError when the indexed tracks hold more events than 32 bits can number.
  static CorrelationIndex build(const std::vector<Track>& tracks, const std::function<bool(const Track&)>& include);

  // The indexed events whose pid and correlation id are these, in index order.
  std::vector<EventRef> find(const std::vector<Track>& tracks, uint32_t pid, uint32_t correlation) const;
  size_t size() const { return order_.size(); }
  size_t residentBytes() const;

 private:
  struct LaneSpan {
    uint32_t first;  // position of the lane's first event when the lanes are laid end to end
    uint32_t track;
    uint32_t lane;
  };
  EventRef refOf(uint32_t position) const;
  uint64_t keyOf(const std::vector<Track>& tracks, uint32_t position) const;

  std::vector<LaneSpan> lanes_;  // by first
  std::vector<uint32_t> order_;  // positions sorted by (pid, correlation), then position
};

}  // namespace gpuscope
