#include "core/model/correlation_index.h"

#include <algorithm>
#include <limits>
#include <queue>

#include "core/error.h"

namespace gpuscope {
namespace {

uint64_t keyOf(uint32_t pid, uint32_t correlation) { return uint64_t{pid} << 32 | correlation; }

// One lane's indexed events in correlation order: its own order when the ids already rise with
// time (the usual case), else a sorted list of its indexes.
class LaneRun {
 public:
  LaneRun(const Lane& lane, uint32_t pid, uint32_t first) : lane_(lane), pid_(pid), first_(first) {
    const auto& correlation = lane.correlation;
    uint32_t previous = 0;
    for (uint32_t c : correlation) {
      if (c == 0) continue;
      if (c < previous) {
        sortIndexes();
        break;
      }
      previous = c;
    }
    skipUncorrelated();
  }

  bool done() const { return sorted_.empty() ? next_ >= lane_.correlation.size() : next_ >= sorted_.size(); }
  uint64_t key() const { return keyOf(pid_, lane_.correlation[index()]); }
  uint32_t position() const { return first_ + index(); }
  void advance() {
    ++next_;
    skipUncorrelated();
  }

 private:
  uint32_t index() const { return sorted_.empty() ? static_cast<uint32_t>(next_) : sorted_[next_]; }
  void skipUncorrelated() {
    while (sorted_.empty() && next_ < lane_.correlation.size() && lane_.correlation[next_] == 0) ++next_;
  }
  void sortIndexes() {
    const auto& correlation = lane_.correlation;
    for (uint32_t i = 0; i < correlation.size(); ++i)
      if (correlation[i] != 0) sorted_.push_back(i);
    std::stable_sort(sorted_.begin(), sorted_.end(),
                     [&](uint32_t a, uint32_t b) { return correlation[a] < correlation[b]; });
  }

  const Lane& lane_;
  uint32_t pid_;
  uint32_t first_;
  size_t next_ = 0;
  std::vector<uint32_t> sorted_;  // empty while the lane is its own order
};

}  // namespace

CorrelationIndex CorrelationIndex::build(const std::vector<Track>& tracks,
                                         const std::function<bool(const Track&)>& include) {
  CorrelationIndex index;
  uint64_t laidOut = 0;
  size_t correlated = 0;
  std::vector<LaneRun> runs;
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (!include(tracks[t])) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const Lane& lane = tracks[t].lanes[l];
      if (laidOut + lane.size() > std::numeric_limits<uint32_t>::max())
        throw TraceError("The trace has more CUDA events than gpuscope can index (4,294,967,295).");
      index.lanes_.push_back({static_cast<uint32_t>(laidOut), t, l});
      runs.emplace_back(lane, tracks[t].pid, static_cast<uint32_t>(laidOut));
      laidOut += lane.size();
      correlated += lane.size() - static_cast<size_t>(std::count(lane.correlation.begin(), lane.correlation.end(), 0u));
    }
  }
  // A k-way merge of the lanes' runs: the heap holds one cursor per lane, smallest key on top. Each
  // entry carries its run's current key and position, so a comparison reads no lane.
  struct Head {
    uint64_t key;
    uint32_t position;
    uint32_t run;
  };
  auto later = [](const Head& a, const Head& b) { return a.key != b.key ? a.key > b.key : a.position > b.position; };
  std::vector<Head> heads;
  heads.reserve(runs.size());
  for (size_t r = 0; r < runs.size(); ++r)
    if (!runs[r].done()) heads.push_back({runs[r].key(), runs[r].position(), static_cast<uint32_t>(r)});
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heap(later, std::move(heads));
  index.order_.reserve(correlated);
  while (!heap.empty()) {
    Head head = heap.top();
    heap.pop();
    LaneRun& run = runs[head.run];
    // Take the run's events while they stay below every other lane's next key.
    uint64_t bound = heap.empty() ? std::numeric_limits<uint64_t>::max() : heap.top().key;
    uint32_t boundPosition = heap.empty() ? 0 : heap.top().position;
    do {
      index.order_.push_back(run.position());
      run.advance();
    } while (!run.done() && (run.key() < bound || (run.key() == bound && run.position() < boundPosition)));
    if (!run.done()) heap.push({run.key(), run.position(), head.run});
  }
  return index;
}

EventRef CorrelationIndex::refOf(uint32_t position) const {
  auto span = std::upper_bound(lanes_.begin(), lanes_.end(), position,
                               [](uint32_t p, const LaneSpan& s) { return p < s.first; }) -
              1;
  return {span->track, span->lane, position - span->first};
}

uint64_t CorrelationIndex::keyOf(const std::vector<Track>& tracks, uint32_t position) const {
  EventRef ref = refOf(position);
  const Track& track = tracks[ref.track];
  return gpuscope::keyOf(track.pid, track.lanes[ref.lane].correlation[ref.index]);
}

std::vector<EventRef> CorrelationIndex::find(const std::vector<Track>& tracks, uint32_t pid,
                                             uint32_t correlation) const {
  uint64_t key = gpuscope::keyOf(pid, correlation);
  auto it = std::lower_bound(order_.begin(), order_.end(), key,
                             [&](uint32_t position, uint64_t k) { return keyOf(tracks, position) < k; });
  std::vector<EventRef> found;
  for (; it != order_.end() && keyOf(tracks, *it) == key; ++it) found.push_back(refOf(*it));
  return found;
}

size_t CorrelationIndex::residentBytes() const {
  return lanes_.capacity() * sizeof(LaneSpan) + order_.capacity() * sizeof(uint32_t);
}

}  // namespace gpuscope
