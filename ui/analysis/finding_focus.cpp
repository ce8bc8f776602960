#include "ui/analysis/finding_focus.h"

#include <algorithm>

namespace gpuscope::ui {
namespace {

bool trackHoldsRange(const Track& track, const FindingRange& range) {
  if (track.pid != range.pid) return false;
  if (range.onGpu) {
    return track.isGpu() && range.streamId != 0 && track.deviceId == range.deviceId &&
           track.contextId == range.contextId && track.streamId == range.streamId;
  }
  return track.kind == TrackKind::CudaApi && track.tid == range.tid;
}

}  // namespace

std::optional<EventRef> eventOfRange(const Trace& trace, const FindingRange& range) {
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (!trackHoldsRange(tracks[t], range)) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const Lane& lane = tracks[t].lanes[l];
      auto it = std::lower_bound(lane.start.begin(), lane.start.end(), range.start);
      for (; it != lane.start.end() && *it == range.start; ++it) {
        auto index = static_cast<uint32_t>(it - lane.start.begin());
        if (lane.end(index) == range.end) return EventRef{t, l, index};
      }
    }
  }
  return std::nullopt;
}

std::optional<uint32_t> trackOfRange(const Trace& trace, const FindingRange& range) {
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t)
    if (trackHoldsRange(tracks[t], range)) return t;
  if (!range.onGpu) return std::nullopt;
  for (uint32_t t = 0; t < tracks.size(); ++t)
    if (tracks[t].isGpu() && tracks[t].pid == range.pid && tracks[t].deviceId == range.deviceId) return t;
  return std::nullopt;
}

std::vector<size_t> placesPreferring(const Finding& finding, std::optional<TimeInterval> window) {
  std::vector<size_t> inside, outside;
  for (size_t i = 0; i < finding.ranges.size(); ++i) {
    const FindingRange& range = finding.ranges[i];
    bool in = window && !window->empty() && window->overlaps(range.start, range.end);
    (in ? inside : outside).push_back(i);
  }
  inside.insert(inside.end(), outside.begin(), outside.end());
  return inside;
}

void focusFindingRange(TraceSession& session, const FindingRange& range) {
  if (!session.hasTrace()) return;
  TimeNs margin = std::max<TimeNs>((range.end - range.start) / 10, 100);
  session.setViewRange(range.start - margin, range.end + margin);
  session.setRange(range.start, range.end);
  auto event = eventOfRange(*session.trace(), range);
  session.select(event);
  if (!event)
    if (auto track = trackOfRange(*session.trace(), range)) session.revealTrack(*track);
}

}  // namespace gpuscope::ui
