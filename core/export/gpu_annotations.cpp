#include "core/export/gpu_annotations.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gpuscope {
namespace {

// For each CPU track, the user-annotation NVTX tracks of the same thread.
std::vector<std::vector<uint32_t>> annotationTracksByTrack(const Trace& trace, const EventCategories& categories) {
  std::vector<std::vector<uint32_t>> result(trace.tracks().size());
  for (const auto& process : trace.processes())
    for (const auto& thread : process.threads) {
      std::vector<uint32_t> annotations;
      for (uint32_t index : thread.tracks) {
        const auto& track = trace.track(index);
        if (track.kind == TrackKind::Nvtx && !track.lanes.empty() && !track.lanes[0].start.empty() &&
            categories.of({index, 0, 0}) == "user_annotation")
          annotations.push_back(index);
      }
      for (uint32_t index : thread.tracks) result[index] = annotations;
    }
  return result;
}

// Calls F with every range of TRACK that contains TIME (one per lane at most: a lane never overlaps itself).
template <typename F>
void forEachRangeAt(const Trace& trace, uint32_t trackIndex, TimeNs time, F&& f) {
  const auto& track = trace.track(trackIndex);
  for (uint32_t laneIndex = 0; laneIndex < track.lanes.size(); ++laneIndex) {
    const auto& lane = track.lanes[laneIndex];
    auto it = std::upper_bound(lane.start.begin(), lane.start.end(), time);
    if (it == lane.start.begin()) continue;
    auto index = static_cast<uint32_t>(it - lane.start.begin() - 1);
    if (lane.end(index) >= time) f(EventRef{trackIndex, laneIndex, index});
  }
}

}  // namespace

std::vector<GpuAnnotation> gpuAnnotations(const Trace& trace, const EventCategories& categories) {
  auto annotationTracks = annotationTracksByTrack(trace, categories);
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>;  // device, stream, range
  std::map<Key, std::pair<TimeNs, TimeNs>> spans;
  for (uint32_t trackIndex = 0; trackIndex < trace.tracks().size(); ++trackIndex) {
    const auto& track = trace.track(trackIndex);
    if (!track.isGpu()) continue;
    for (uint32_t laneIndex = 0; laneIndex < track.lanes.size(); ++laneIndex) {
      const auto& lane = track.lanes[laneIndex];
      for (uint32_t i = 0; i < lane.size(); ++i) {
        auto call = trace.launchingCall({trackIndex, laneIndex, i});
        if (!call) continue;
        for (uint32_t nvtxTrack : annotationTracks[call->track])
          forEachRangeAt(trace, nvtxTrack, trace.start(*call), [&](EventRef range) {
            Key key{track.deviceId, track.streamId, range.track, range.lane, range.index};
            auto [it, added] = spans.try_emplace(key, lane.start[i], lane.end(i));
            if (!added) {
              it->second.first = std::min(it->second.first, lane.start[i]);
              it->second.second = std::max(it->second.second, lane.end(i));
            }
          });
      }
    }
  }
  std::vector<GpuAnnotation> result;
  for (const auto& [key, span] : spans) {
    auto [device, stream, rangeTrack, rangeLane, rangeIndex] = key;
    result.push_back({{rangeTrack, rangeLane, rangeIndex}, device, stream, span.first, span.second});
  }
  std::stable_sort(result.begin(), result.end(), [](const GpuAnnotation& a, const GpuAnnotation& b) {
    return std::tie(a.device, a.stream, a.start) < std::tie(b.device, b.stream, b.start);
  });
  return result;
}

}  // namespace gpuscope
