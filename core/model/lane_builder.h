#pragma once
// Lane building: events of one track, in any order, become non-overlapping lanes by nesting depth.
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

// One event as read from a table, before it is placed in a lane.
struct RawEvent {
  TimeNs start;
  TimeNs end;
  StringId name;
  uint32_t correlation;
  uint32_t row;
  uint32_t style;
};

// Most lanes a track may have; deeper nesting is refused as a malformed trace.
inline constexpr size_t kMaxLanes = 4096;

// Sorts events by start (longer first on ties) and places each in the lowest lane that is free
// when it starts, which for properly nested ranges is its nesting depth. Lanes never overlap.
// keepStyle: whether the lanes carry the style column. Throws TraceError past kMaxLanes.
std::vector<Lane> buildLanes(std::vector<RawEvent>& events, bool keepStyle);

}  // namespace gpuscope
