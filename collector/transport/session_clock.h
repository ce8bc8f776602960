#pragma once
// The one clock every source stamps with: CLOCK_MONOTONIC in nanoseconds (CUPTI is told to use it too).
#include <cstdint>
#include <ctime>

namespace gpuscope::transport {

inline int64_t sessionClockNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

}  // namespace gpuscope::transport
