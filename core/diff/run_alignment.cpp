#include "core/diff/run_alignment.h"

#include <algorithm>
#include <tuple>

#include "core/stats/summary_stats.h"

namespace gpuscope {

std::vector<EventRef> namedInstances(const Trace& trace, AlignmentAnchor::Kind kind, const std::string& name) {
  std::vector<EventRef> refs;
  if (kind == AlignmentAnchor::Kind::Start || name.empty()) return refs;
  TrackKind wanted = kind == AlignmentAnchor::Kind::Kernel ? TrackKind::GpuKernels : TrackKind::Nvtx;
  // NVTX lanes hold the text alone; "<domain>:<text>" (nvtx_sum's spelling) matches by its text.
  std::string text = name;
  auto colon = name.find(':');
  if (kind == AlignmentAnchor::Kind::NvtxRange && colon != std::string::npos) text = name.substr(colon + 1);
  // Test each distinct string once, not once per event.
  std::vector<bool> matching(trace.stringCount());
  bool any = false;
  for (StringId id = 0; id < trace.stringCount(); ++id) {
    const std::string& s = trace.string(id);
    matching[id] = s == name || s == text;
    any = any || matching[id];
  }
  if (!any) return refs;
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (tracks[t].kind != wanted) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const Lane& lane = tracks[t].lanes[l];
      for (uint32_t i = 0; i < lane.size(); ++i)
        if (lane.name[i] < matching.size() && matching[lane.name[i]]) refs.push_back({t, l, i});
    }
  }
  auto key = [&trace](const EventRef& r) { return std::make_tuple(trace.start(r), r.track, r.lane, r.index); };
  std::sort(refs.begin(), refs.end(), [&](const EventRef& x, const EventRef& y) { return key(x) < key(y); });
  return refs;
}

std::vector<TimeNs> anchorCandidates(const Trace& trace, AlignmentAnchor::Kind kind, const std::string& name) {
  std::vector<TimeNs> starts;
  for (const auto& ref : namedInstances(trace, kind, name)) starts.push_back(trace.start(ref));
  return starts;
}

std::optional<TimeNs> anchorTime(const Trace& trace, const AlignmentAnchor& anchor) {
  if (anchor.kind == AlignmentAnchor::Kind::Start) return trace.startTime();
  auto starts = anchorCandidates(trace, anchor.kind, anchor.name);
  if (anchor.index >= starts.size()) return std::nullopt;
  return starts[anchor.index];
}

RunAlignment alignAt(TimeNs anchorA, TimeNs anchorB, TimeNs manualShift) {
  return {saturatingAdd(saturatingSub(anchorA, anchorB), manualShift)};
}

std::optional<RunAlignment> alignRuns(const Trace& a, const AlignmentAnchor& anchorA, const Trace& b,
                                      const AlignmentAnchor& anchorB, TimeNs manualShift) {
  auto ta = anchorTime(a, anchorA);
  auto tb = anchorTime(b, anchorB);
  if (!ta || !tb) return std::nullopt;
  return alignAt(*ta, *tb, manualShift);
}

}  // namespace gpuscope
