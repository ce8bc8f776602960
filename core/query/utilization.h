#pragma once
// DeviceUtilization: how busy a device was over time, as the union of its GPU work on all streams.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

class DeviceUtilization {
 public:
  DeviceUtilization() = default;

  // The union of the events of LANES (each lane's events never overlap; lanes may overlap each
  // other). Built once, by a k-way merge on start: n events in k lanes cost O(n log k) at most, and
  // long runs of one lane cost no heap operation.
  static DeviceUtilization fromLanes(const std::vector<const Lane*>& lanes);
  // Every lane of every kernel and memory track of device DEVICE_ID, across processes and streams.
  static DeviceUtilization forDevice(const Trace& trace, uint32_t deviceId);

  // Nanoseconds in [t0, t1) during which at least one event was running: two binary searches.
  TimeNs busyTime(TimeNs t0, TimeNs t1) const;

  // OUT[p] = busy fraction in [0, 1] of pixel p, which covers [x(p), x(p + 1)) with
  // x(p) = start + round(p * nsPerPixel); a pixel whose edges round to the same nanosecond is
  // measured over the nanosecond holding its centre.
  // PIXELS + 1 binary searches, whatever the number of events.
  void fractions(TimeNs start, double nsPerPixel, size_t pixels, std::vector<float>& out) const;

  // The merged busy intervals [intervalStart[i], intervalEnd[i]): sorted, disjoint, non-empty.
  const std::vector<TimeNs>& intervalStart() const { return start_; }
  const std::vector<TimeNs>& intervalEnd() const { return end_; }
  TimeNs totalBusy() const { return busyBefore_.empty() ? 0 : busyBefore_.back(); }

 private:
  // Busy nanoseconds before time T.
  TimeNs busyBefore(TimeNs t) const;

  std::vector<TimeNs> start_;
  std::vector<TimeNs> end_;
  std::vector<TimeNs> busyBefore_;  // busyBefore_[i]: busy time of intervals [0, i); size = intervals + 1
};

}  // namespace gpuscope
