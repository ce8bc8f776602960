#include "core/diff/aligned_window.h"

#include <algorithm>
#include <limits>
#include <set>

#include "core/details/kernel_list.h"
#include "core/model/time_math.h"

namespace gpuscope {
namespace {

// First start to last end of the run's kernels and memory operations; the whole run when it has none.
TimeInterval gpuWork(const Trace& trace) {
  TimeInterval work{std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min()};
  for (const Track& track : trace.tracks()) {
    if (!track.isGpu() || track.eventCount() == 0) continue;
    work.start = std::min(work.start, track.first);
    work.end = std::max(work.end, track.last);
  }
  if (work.end <= work.start) return {trace.startTime(), trace.endTime()};
  return work;
}

// A window is never empty: a zero-length anchor still has a place on the clock.
TimeInterval atLeastOneNs(TimeInterval window) {
  if (window.end <= window.start) window.end = saturatingAdd(window.start, 1);
  return window;
}

// The window ANCHOR pins in TRACE (see alignedWindow); none when the anchor is not there.
std::optional<TimeInterval> windowOf(const Trace& trace, const AlignmentAnchor& anchor) {
  if (anchor.kind == AlignmentAnchor::Kind::Start) return atLeastOneNs({trace.startTime(), trace.endTime()});
  std::vector<EventRef> instances = namedInstances(trace, anchor.kind, anchor.name);
  if (anchor.index >= instances.size()) return std::nullopt;
  const EventRef& ref = instances[anchor.index];
  if (anchor.kind == AlignmentAnchor::Kind::NvtxRange) return atLeastOneNs({trace.start(ref), trace.end(ref)});
  TimeNs end = anchor.index + 1 < instances.size() ? trace.start(instances[anchor.index + 1])
                                                   : std::max(gpuWork(trace).end, trace.end(ref));
  return atLeastOneNs({trace.start(ref), end});
}

std::string labelOf(const AlignmentAnchor& a, const AlignmentAnchor& b) {
  if (a.kind == AlignmentAnchor::Kind::Start) return "whole runs";
  std::string which = a.index == b.index ? (a.index == 0 ? std::string() : " #" + std::to_string(a.index + 1))
                                         : " A #" + std::to_string(a.index + 1) + ", B #" + std::to_string(b.index + 1);
  if (a.kind == AlignmentAnchor::Kind::NvtxRange) return "NVTX '" + a.name + "'" + which;
  return "kernel '" + a.name + "'" + (which.empty() ? " #1" : which) + " to the next";
}

// The texts of TRACE's outermost closed NVTX ranges.
std::set<std::string> outermostRangeTexts(const Trace& trace) {
  std::set<std::string> texts;
  for (const Track& track : trace.tracks()) {
    if (track.kind != TrackKind::Nvtx || track.lanes.empty()) continue;
    const Lane& lane = track.lanes.front();
    for (size_t i = 0; i < lane.size(); ++i)
      if (lane.end(i) > lane.start[i]) texts.insert(trace.string(lane.name[i]));
  }
  return texts;
}

// Whether a kernel of TRACE starts in [start, end): two binary searches per kernel lane.
bool kernelStartsIn(const Trace& trace, TimeNs start, TimeNs end) {
  for (const Track& track : trace.tracks()) {
    if (track.kind != TrackKind::GpuKernels) continue;
    for (const Lane& lane : track.lanes) {
      auto first = std::lower_bound(lane.start.begin(), lane.start.end(), start);
      if (first != lane.start.end() && *first < end) return true;
    }
  }
  return false;
}

// A's last outermost NVTX range in which kernels run and whose text B has too, as anchors; none when
// there is none.
std::optional<std::pair<AlignmentAnchor, AlignmentAnchor>> lastSharedRange(const Trace& a, const Trace& b) {
  const std::set<std::string> inB = outermostRangeTexts(b);
  std::optional<EventRef> last;
  const auto& tracks = a.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (tracks[t].kind != TrackKind::Nvtx || tracks[t].lanes.empty()) continue;
    const Lane& lane = tracks[t].lanes.front();
    for (uint32_t i = 0; i < lane.size(); ++i) {
      if (lane.end(i) <= lane.start[i] || (last && lane.start[i] <= a.start(*last))) continue;
      if (!inB.contains(a.string(lane.name[i])) || !kernelStartsIn(a, lane.start[i], lane.end(i))) continue;
      last = EventRef{t, 0, i};
    }
  }
  if (!last) return std::nullopt;
  const std::string& name = a.name(*last);
  std::vector<EventRef> instancesA = namedInstances(a, AlignmentAnchor::Kind::NvtxRange, name);
  size_t countB = namedInstances(b, AlignmentAnchor::Kind::NvtxRange, name).size();
  auto at = std::find(instancesA.begin(), instancesA.end(), *last);
  size_t indexA = static_cast<size_t>(at - instancesA.begin());
  if (at == instancesA.end() || countB == 0) return std::nullopt;
  AlignmentAnchor anchorA{AlignmentAnchor::Kind::NvtxRange, name, indexA};
  AlignmentAnchor anchorB{AlignmentAnchor::Kind::NvtxRange, name, std::min(indexA, countB - 1)};
  return std::make_pair(anchorA, anchorB);
}

// A's first kernel whose name B has too, first instance in both; none when they share no kernel.
std::optional<std::pair<AlignmentAnchor, AlignmentAnchor>> firstSharedKernel(const Trace& a, const Trace& b) {
  std::set<std::string> inB;
  for (const Track& track : b.tracks()) {
    if (track.kind != TrackKind::GpuKernels) continue;
    for (const Lane& lane : track.lanes)
      for (StringId id : lane.name) inB.insert(b.string(id));
  }
  for (const EventRef& ref : kernelInstances(a)) {
    if (!inB.contains(a.name(ref))) continue;
    AlignmentAnchor anchor{AlignmentAnchor::Kind::Kernel, a.name(ref), 0};
    // The first instance of that name in A is this one: instances are in start order.
    return std::make_pair(anchor, anchor);
  }
  return std::nullopt;
}

}  // namespace

TimeInterval AlignedWindow::viewOfA() const {
  return {a.start, saturatingAdd(a.start, std::max(a.length(), b.length()))};
}

std::optional<AlignedWindow> alignedWindow(const Trace& a, const AlignmentAnchor& anchorA, const Trace& b,
                                           const AlignmentAnchor& anchorB) {
  auto inA = windowOf(a, anchorA);
  auto inB = windowOf(b, anchorB);
  if (!inA || !inB) return std::nullopt;
  return AlignedWindow{labelOf(anchorA, anchorB), *inA, *inB};
}

std::pair<AlignmentAnchor, AlignmentAnchor> defaultAnchors(const Trace& a, const Trace& b) {
  if (auto ranges = lastSharedRange(a, b)) return *ranges;
  if (auto kernels = firstSharedKernel(a, b)) return *kernels;
  return {AlignmentAnchor{}, AlignmentAnchor{}};
}

}  // namespace gpuscope
