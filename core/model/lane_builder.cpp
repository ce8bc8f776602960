#include "core/model/lane_builder.h"

#include <algorithm>

#include "core/error.h"

namespace gpuscope {
namespace {

bool startsBefore(const RawEvent& a, const RawEvent& b) {
  if (a.start != b.start) return a.start < b.start;
  return a.end > b.end;  // the enclosing range first
}

// Lane of each event, by a stack of open lanes: a lane is popped once its last event has ended.
std::vector<uint16_t> assignLanes(const std::vector<RawEvent>& events, size_t& laneCount) {
  std::vector<uint16_t> laneOf(events.size());
  std::vector<TimeNs> laneEnd;
  size_t open = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& event = events[i];
    while (open > 0 && laneEnd[open - 1] <= event.start) --open;
    if (open == laneEnd.size()) {
      if (laneEnd.size() == kMaxLanes)
        throw TraceError("The trace nests events more than " + std::to_string(kMaxLanes) + " levels deep.");
      laneEnd.push_back(event.end);
    } else {
      laneEnd[open] = event.end;
    }
    laneOf[i] = static_cast<uint16_t>(open++);
  }
  laneCount = laneEnd.size();
  return laneOf;
}

}  // namespace

std::vector<Lane> buildLanes(std::vector<RawEvent>& events, bool keepStyle) {
  if (!std::is_sorted(events.begin(), events.end(), startsBefore))
    std::stable_sort(events.begin(), events.end(), startsBefore);
  size_t laneCount = 0;
  auto laneOf = assignLanes(events, laneCount);

  std::vector<size_t> sizes(laneCount, 0);
  for (auto lane : laneOf) ++sizes[lane];
  std::vector<Lane> lanes(laneCount);
  for (size_t l = 0; l < laneCount; ++l) {
    auto& lane = lanes[l];
    lane.reserveIntervals(sizes[l]);
    lane.name.reserve(sizes[l]);
    lane.correlation.reserve(sizes[l]);
    lane.row.reserve(sizes[l]);
    if (keepStyle) lane.style.reserve(sizes[l]);
  }
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& event = events[i];
    auto& lane = lanes[laneOf[i]];
    lane.pushInterval(event.start, event.end);
    lane.name.push_back(event.name);
    lane.correlation.push_back(event.correlation);
    lane.row.push_back(event.row);
    if (keepStyle) lane.style.push_back(event.style);
  }
  std::vector<RawEvent>().swap(events);
  return lanes;
}

}  // namespace gpuscope
