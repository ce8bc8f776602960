#include "core/query/kernel_index.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "core/error.h"

namespace gpuscope {

KernelIndex::KernelIndex(const Trace& trace) {
  const auto& tracks = trace.tracks();
  uint64_t total = 0;
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (tracks[t].kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      if (tracks[t].lanes[l].size() == 0) continue;
      blocks_.push_back({t, l, static_cast<uint32_t>(total)});
      total += tracks[t].lanes[l].size();
    }
  }
  // Row numbers in Qt's models are ints; a trace with more kernels than that cannot be tabled.
  if (total > static_cast<uint64_t>(INT32_MAX)) throw TraceError("this trace has too many kernels to list.");
  size_ = static_cast<uint32_t>(total);
  mergeByStart(trace);
  collectNames(trace);
}

EventRef KernelIndex::event(uint32_t kernel) const {
  auto block =
      std::upper_bound(blocks_.begin(), blocks_.end(), kernel, [](uint32_t k, const Block& b) { return k < b.first; });
  --block;  // kernel < size_, so some block starts at or before it
  return {block->track, block->lane, kernel - block->first};
}

std::optional<uint32_t> KernelIndex::find(EventRef event) const {
  auto block = std::find_if(blocks_.begin(), blocks_.end(),
                            [&](const Block& b) { return b.track == event.track && b.lane == event.lane; });
  if (block == blocks_.end()) return std::nullopt;
  uint32_t end = block + 1 == blocks_.end() ? size_ : (block + 1)->first;
  if (event.index >= end - block->first) return std::nullopt;
  return block->first + event.index;
}

// Each lane is sorted by start already, so a k-way merge over the lanes (k is the number of kernel lanes,
// a few dozen) orders every kernel in O(n log k), with no per-kernel key to store.
void KernelIndex::mergeByStart(const Trace& trace) {
  byStart_.reserve(size_);
  struct Head {
    TimeNs start;
    uint32_t block;
    uint32_t index;
  };
  auto later = [](const Head& a, const Head& b) { return std::tie(a.start, a.block) > std::tie(b.start, b.block); };
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
  std::vector<const std::vector<TimeNs>*> starts;
  for (uint32_t b = 0; b < blocks_.size(); ++b) {
    starts.push_back(&trace.tracks()[blocks_[b].track].lanes[blocks_[b].lane].start);
    heads.push({(*starts[b])[0], b, 0});
  }
  while (!heads.empty()) {
    Head head = heads.top();
    heads.pop();
    byStart_.push_back(blocks_[head.block].first + head.index);
    const auto& lane = *starts[head.block];
    // Stay on this lane while it keeps the earliest start: long runs cost no heap operation.
    uint32_t next = head.index + 1;
    while (next < lane.size() &&
           (heads.empty() || std::tie(lane[next], head.block) < std::tie(heads.top().start, heads.top().block))) {
      byStart_.push_back(blocks_[head.block].first + next);
      ++next;
    }
    if (next < lane.size()) heads.push({lane[next], head.block, next});
  }
}

void KernelIndex::collectNames(const Trace& trace) {
  std::vector<uint8_t> seen(trace.stringCount(), 0);
  for (const Block& block : blocks_) {
    const Lane& lane = trace.tracks()[block.track].lanes[block.lane];
    for (StringId id : lane.name) {
      if (id < seen.size()) seen[id] = 1;
    }
    for (StringId id : lane.style) {
      if (id < seen.size()) seen[id] = 1;
    }
  }
  for (StringId id = 0; id < seen.size(); ++id) {
    if (seen[id]) names_.push_back(id);
  }
}

}  // namespace gpuscope
