#include "core/model/lane_accumulator.h"

#include <sys/mman.h>

#include <string>
#include <type_traits>

#include "core/error.h"

namespace gpuscope {

static_assert(std::is_trivially_copyable_v<RawEvent>);

LaneAccumulator::Chunk LaneAccumulator::mapChunk() {
  void* memory =
      mmap(nullptr, kChunkEvents * sizeof(RawEvent), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  return Chunk(static_cast<RawEvent*>(memory));
}

void LaneAccumulator::Unmap::operator()(RawEvent* chunk) const { munmap(chunk, kChunkEvents * sizeof(RawEvent)); }

// Whether EVENT may follow the last one in lane order: a later start, or the same start and not longer.
bool LaneAccumulator::followsLast(const RawEvent& event) const {
  return !any_ || event.start > last_.start || (event.start == last_.start && event.end <= last_.end);
}

void LaneAccumulator::add(const RawEvent& event) {
  if (ordered_ && !followsLast(event)) becomeRaw();
  if (!ordered_) {
    raw_.push_back(event);
    return;
  }
  place(event);
  last_ = event;
  any_ = true;
}

// The lowest lane free at the event's start, by the stack of open lanes (as buildLanes assigns them).
void LaneAccumulator::place(const RawEvent& event) {
  while (open_ > 0 && laneEnd_[open_ - 1] <= event.start) --open_;
  if (open_ == laneEnd_.size()) {
    if (laneEnd_.size() == kMaxLanes)
      throw TraceError("The trace nests events more than " + std::to_string(kMaxLanes) + " levels deep.");
    laneEnd_.push_back(event.end);
    lanes_.emplace_back();
  } else {
    laneEnd_[open_] = event.end;
  }
  ChunkedLane& lane = lanes_[open_++];
  size_t slot = lane.size % kChunkEvents;
  if (slot == 0) lane.chunks.push_back(mapChunk());
  lane.chunks.back()[slot] = event;
  ++lane.size;
}

// Lanes laid end to end, lowest first: among events of equal start and end, the one in the lower
// lane came first, so buildLanes' stable sort keeps the table's order.
void LaneAccumulator::becomeRaw() {
  ordered_ = false;
  size_t total = 0;
  for (const auto& lane : lanes_) total += lane.size;
  raw_.reserve(total + total / 4);
  for (auto& lane : lanes_) {
    for (size_t i = 0; i < lane.size; ++i) raw_.push_back(lane.chunks[i / kChunkEvents][i % kChunkEvents]);
  }
  lanes_.clear();
  laneEnd_.clear();
}

Lane LaneAccumulator::copyOut(ChunkedLane& chunked) const {
  Lane lane;
  lane.reserveIntervals(chunked.size);
  lane.name.reserve(chunked.size);
  lane.correlation.reserve(chunked.size);
  lane.row.reserve(chunked.size);
  if (keepStyle_) lane.style.reserve(chunked.size);
  size_t left = chunked.size;
  for (auto& chunk : chunked.chunks) {
    size_t count = std::min(left, kChunkEvents);
    for (size_t i = 0; i < count; ++i) {
      const RawEvent& event = chunk[i];
      lane.pushInterval(event.start, event.end);
      lane.name.push_back(event.name);
      lane.correlation.push_back(event.correlation);
      lane.row.push_back(event.row);
      if (keepStyle_) lane.style.push_back(event.style);
    }
    left -= count;
    chunk.reset();
  }
  return lane;
}

std::vector<Lane> LaneAccumulator::finish() {
  std::vector<Lane> lanes;
  if (!ordered_) {
    lanes = buildLanes(raw_, keepStyle_);
  } else {
    lanes.reserve(lanes_.size());
    for (auto& chunked : lanes_) lanes.push_back(copyOut(chunked));
  }
  lanes_.clear();
  laneEnd_.clear();
  std::vector<RawEvent>().swap(raw_);
  ordered_ = true;
  any_ = false;
  open_ = 0;
  return lanes;
}

}  // namespace gpuscope
