#include "core/query/kernel_rows.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

// Calls VISIT(kernel number, lane, index in lane, track) for every kernel, lane by lane (sequential reads).
template <typename Visit>
void forEachKernel(const Trace& trace, const KernelIndex& index, Visit visit) {
  uint32_t kernel = 0;
  while (kernel < index.size()) {
    EventRef first = index.event(kernel);
    const Track& track = trace.tracks()[first.track];
    const Lane& lane = track.lanes[first.lane];
    for (uint32_t i = 0; i < lane.size(); ++i) visit(kernel + i, lane, i, track);
    kernel += static_cast<uint32_t>(lane.size());
  }
}

bool lessIgnoringCase(const std::string& a, const std::string& b) {
  auto lower = [](unsigned char c) { return std::tolower(c); };
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [&](unsigned char x, unsigned char y) { return lower(x) < lower(y); });
}

// By StringId: the position of each kernel name in case-insensitive order, so rows sort by an integer.
std::vector<uint32_t> nameRanks(const Trace& trace, const KernelIndex& index) {
  std::vector<StringId> names = index.names();
  std::sort(names.begin(), names.end(), [&](StringId a, StringId b) {
    const std::string& x = trace.string(a);
    const std::string& y = trace.string(b);
    if (lessIgnoringCase(x, y)) return true;
    if (lessIgnoringCase(y, x)) return false;
    return x < y;
  });
  std::vector<uint32_t> rank(trace.stringCount(), 0);
  for (uint32_t r = 0; r < names.size(); ++r) rank[names[r]] = r;
  return rank;
}

StringId demangledId(const Lane& lane, uint32_t i) { return i < lane.style.size() ? lane.style[i] : lane.name[i]; }

// By kernel number: the value QUERY sorts by.
std::vector<int64_t> sortKeys(const Trace& trace, const KernelIndex& index, KernelSortKey key) {
  std::vector<int64_t> keys(index.size());
  std::vector<uint32_t> ranks;
  if (key == KernelSortKey::Name || key == KernelSortKey::DemangledName) ranks = nameRanks(trace, index);
  auto rankOf = [&](StringId id) { return id < ranks.size() ? int64_t{ranks[id]} : int64_t{0}; };
  forEachKernel(trace, index, [&](uint32_t kernel, const Lane& lane, uint32_t i, const Track& track) {
    int64_t& value = keys[kernel];
    switch (key) {
      case KernelSortKey::Name:
        value = rankOf(lane.name[i]);
        break;
      case KernelSortKey::DemangledName:
        value = rankOf(demangledId(lane, i));
        break;
      case KernelSortKey::Start:
        value = lane.start[i];
        break;
      case KernelSortKey::Duration:
        value = spanNs(lane.start[i], lane.end(i));
        break;
      case KernelSortKey::Device:
        value = track.deviceId;
        break;
      case KernelSortKey::Context:
        value = track.contextId;
        break;
      case KernelSortKey::Stream:
        value = track.streamId;
        break;
      case KernelSortKey::Correlation:
        value = lane.correlation[i];
        break;
    }
  });
  return keys;
}

// By kernel number: 1 where the kernel passes the name filter and the range.
std::vector<uint8_t> acceptedKernels(const Trace& trace, const KernelIndex& index, const KernelRowQuery& query) {
  std::vector<uint8_t> keep(index.size(), 0);
  const auto& names = query.acceptedNames;
  auto nameOk = [&](StringId id) { return id < names.size() && names[id] != 0; };
  forEachKernel(trace, index, [&](uint32_t kernel, const Lane& lane, uint32_t i, const Track&) {
    bool named = names.empty() || nameOk(lane.name[i]) || nameOk(demangledId(lane, i));
    keep[kernel] = named && keptByRange(query.range, lane.start[i], lane.end(i));
  });
  return keep;
}

}  // namespace

std::vector<uint32_t> selectKernelRows(const Trace& trace, const KernelIndex& index, const KernelRowQuery& query) {
  std::vector<uint32_t> rows;
  if (query.acceptedNames.empty() && query.range.empty()) {
    rows = index.byStart();
  } else {
    std::vector<uint8_t> keep = acceptedKernels(trace, index, query);
    for (uint32_t kernel : index.byStart()) {
      if (keep[kernel]) rows.push_back(kernel);
    }
  }
  if (query.key != KernelSortKey::Start) {
    std::vector<int64_t> keys = sortKeys(trace, index, query.key);
    // Stable over rows in time order: equal keys stay in time order either way.
    if (query.descending)
      std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return keys[a] > keys[b]; });
    else
      std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  } else if (query.descending) {
    std::reverse(rows.begin(), rows.end());
  }
  return rows;
}

std::vector<KernelGroup> summarizeKernelRange(const Trace& trace, const KernelIndex& index, TimeInterval range,
                                              KernelGrouping by) {
  // Lane by lane, reading each lane in order: the grouper keeps each group's earliest kernel itself.
  KernelGrouper grouper(trace, by);
  for (uint32_t kernel = 0; kernel < index.size();) {
    EventRef ref = index.event(kernel);
    const Lane& lane = trace.lane(ref);
    for (ref.index = 0; ref.index < lane.size(); ++ref.index) {
      if (keptByRange(range, lane.start[ref.index], lane.end(ref.index))) grouper.add(ref);
    }
    kernel += static_cast<uint32_t>(lane.size());
  }
  return std::move(grouper).finish();
}

}  // namespace gpuscope
