#include "core/details/kernel_list.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "core/model/time_math.h"

namespace gpuscope {

std::vector<EventRef> kernelInstances(const Trace& trace) {
  std::vector<EventRef> refs;
  refs.reserve(trace.counts().kernels);
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (tracks[t].kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      for (uint32_t i = 0; i < tracks[t].lanes[l].size(); ++i) refs.push_back({t, l, i});
    }
  }
  auto key = [&trace](const EventRef& r) { return std::make_tuple(trace.start(r), r.track, r.lane, r.index); };
  std::sort(refs.begin(), refs.end(), [&](const EventRef& a, const EventRef& b) { return key(a) < key(b); });
  return refs;
}

std::vector<KernelGroup> summarizeKernels(const Trace& trace, const std::vector<EventRef>& instances,
                                          KernelGrouping by) {
  std::vector<KernelGroup> groups;
  std::unordered_map<StringId, size_t> byName;
  TimeNs all = 0;
  for (const auto& ref : instances) {
    StringId name = trace.lane(ref).name[ref.index];
    StringId longName = trace.longNameId(ref);
    TimeNs duration = spanNs(trace.start(ref), trace.end(ref));
    auto [it, inserted] = byName.try_emplace(by == KernelGrouping::ShortName ? name : longName, groups.size());
    if (inserted) groups.push_back({name, longName, 0, 0, duration, duration, ref, 0.0});
    KernelGroup& group = groups[it->second];
    ++group.count;
    group.total = saturatingAdd(group.total, duration);
    group.min = std::min(group.min, duration);
    group.max = std::max(group.max, duration);
    all = saturatingAdd(all, duration);
  }
  for (auto& group : groups) group.share = all > 0 ? static_cast<double>(group.total) / static_cast<double>(all) : 0.0;
  std::sort(groups.begin(), groups.end(), [&trace](const KernelGroup& a, const KernelGroup& b) {
    if (a.total != b.total) return a.total > b.total;
    if (a.name != b.name) return trace.string(a.name) < trace.string(b.name);
    return trace.string(a.longName) < trace.string(b.longName);
  });
  return groups;
}

}  // namespace gpuscope
