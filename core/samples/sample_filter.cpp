#include "core/samples/sample_filter.h"

#include <algorithm>

#include "core/model/global_id.h"

namespace gpuscope {
namespace {

std::vector<TimeInterval> joinedWindows(std::vector<TimeInterval> windows) {
  std::erase_if(windows, [](const TimeInterval& w) { return w.empty(); });
  std::sort(windows.begin(), windows.end(),
            [](const TimeInterval& a, const TimeInterval& b) { return a.start < b.start; });
  std::vector<TimeInterval> joined;
  for (const TimeInterval& w : windows) {
    if (!joined.empty() && w.start <= joined.back().end) {
      joined.back().end = std::max(joined.back().end, w.end);
    } else {
      joined.push_back(w);
    }
  }
  return joined;
}

}  // namespace

SampleMatcher::SampleMatcher(const SampleFilter& filter) : filter_(filter), joined_(joinedWindows(filter.windows)) {}

bool SampleMatcher::keepsTime(TimeNs start) const {
  if (filter_.windows.empty()) return true;
  // The last window starting at or before START is the only one that can hold it.
  auto after = std::upper_bound(joined_.begin(), joined_.end(), start,
                                [](TimeNs value, const TimeInterval& w) { return value < w.start; });
  return after != joined_.begin() && std::prev(after)->contains(start);
}

bool SampleMatcher::keeps(int64_t globalTid, TimeNs start) const {
  if (filter_.pid && global_id::pid(globalTid) != *filter_.pid) return false;
  if (filter_.tid && global_id::tid(globalTid) != *filter_.tid) return false;
  return keepsTime(start);
}

CpuSamples selectSamples(const CpuSamples& samples, const SampleFilter& filter) {
  SampleMatcher matcher(filter);
  CpuSamples selected;
  selected.names = samples.names;
  for (size_t s = 0; s < samples.size(); ++s) {
    if (!matcher.keeps(samples.globalTid[s], samples.start[s])) continue;
    selected.firstFrame.push_back(static_cast<uint32_t>(selected.frames.size()));
    selected.start.push_back(samples.start[s]);
    selected.globalTid.push_back(samples.globalTid[s]);
    selected.threadState.push_back(samples.threadState[s]);
    auto stack = samples.stackOf(s);
    selected.frames.insert(selected.frames.end(), stack.begin(), stack.end());
  }
  selected.firstFrame.push_back(static_cast<uint32_t>(selected.frames.size()));
  return selected;
}

}  // namespace gpuscope
