#include "core/details/kernel_list.h"

#include <algorithm>
#include <tuple>

#include "core/identity/kernel_label.h"
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

KernelGrouper::KernelGrouper(const Trace& trace, KernelGrouping by)
    : trace_(trace), by_(by), slot_(trace.stringCount(), 0) {}

void KernelGrouper::add(EventRef ref) {
  const Lane& lane = trace_.lane(ref);
  StringId name = lane.name[ref.index];
  StringId longName = trace_.longNameId(ref);
  StringId key = by_ == KernelGrouping::ShortName ? name : longName;
  TimeNs start = lane.start[ref.index];
  TimeNs duration = spanNs(start, lane.end(ref.index));
  if (key >= slot_.size()) slot_.resize(key + size_t{1}, 0);
  if (slot_[key] == 0) {
    KernelGroup group;
    group.min = duration;
    group.max = duration;
    groups_.push_back(std::move(group));
    firstStart_.push_back(start);
    slot_[key] = static_cast<uint32_t>(groups_.size());
  }
  size_t slot = slot_[key] - 1;
  KernelGroup& group = groups_[slot];
  if (group.count == 0 || start < firstStart_[slot]) {
    group.first = ref;
    group.name = name;
    group.longName = longName;
    firstStart_[slot] = start;
  }
  ++group.count;
  group.total = saturatingAdd(group.total, duration);
  group.min = std::min(group.min, duration);
  group.max = std::max(group.max, duration);
  all_ = saturatingAdd(all_, duration);
}

std::vector<KernelGroup> KernelGrouper::finish() && {
  for (auto& group : groups_)
    group.share = all_ > 0 ? static_cast<double>(group.total) / static_cast<double>(all_) : 0.0;
  const Trace& trace = trace_;
  // By short name every group has its own label; by demangled name several may share a short name.
  std::vector<KernelSpelling> spellings;
  for (const auto& group : groups_) spellings.push_back({trace.string(group.name), trace.string(group.longName)});
  std::vector<std::string> labels =
      by_ == KernelGrouping::DemangledName ? distinguishingKernelLabels(spellings) : std::vector<std::string>{};
  for (size_t g = 0; g < groups_.size(); ++g)
    groups_[g].label = labels.empty() ? trace.string(groups_[g].name) : std::move(labels[g]);
  std::sort(groups_.begin(), groups_.end(), [&trace](const KernelGroup& a, const KernelGroup& b) {
    if (a.total != b.total) return a.total > b.total;
    if (a.name != b.name) return trace.string(a.name) < trace.string(b.name);
    return trace.string(a.longName) < trace.string(b.longName);
  });
  return std::move(groups_);
}

std::vector<KernelGroup> summarizeKernels(const Trace& trace, const std::vector<EventRef>& instances,
                                          KernelGrouping by) {
  KernelGrouper grouper(trace, by);
  for (const auto& ref : instances) grouper.add(ref);
  return std::move(grouper).finish();
}

}  // namespace gpuscope
