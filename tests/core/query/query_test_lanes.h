#pragma once
// Hand-made lanes for the query tests.
#include <initializer_list>
#include <utility>

#include "core/model/trace.h"

namespace gpuscope::test {

// A lane of [start, end) events, in the order given (which must be sorted and non-overlapping).
inline Lane makeLane(std::initializer_list<std::pair<TimeNs, TimeNs>> events, StringId name = 0) {
  Lane lane;
  uint32_t row = 1;
  for (auto [start, end] : events) {
    lane.pushInterval(start, end);
    lane.name.push_back(name);
    lane.correlation.push_back(0);
    lane.row.push_back(row++);
  }
  return lane;
}

inline void addEvent(Lane& lane, TimeNs start, TimeNs end, StringId name = 0) {
  lane.pushInterval(start, end);
  lane.name.push_back(name);
  lane.correlation.push_back(0);
  lane.row.push_back(static_cast<uint32_t>(lane.start.size()));
}

}  // namespace gpuscope::test
