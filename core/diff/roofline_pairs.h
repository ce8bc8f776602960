#pragma once
// RooflinePair: one kernel name's roofline point in run A and in run B, for drawing the move between runs.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/roofline/roofline.h"

namespace gpuscope {

// Where a point sits on a log-log roofline chart: x = FLOP per byte at one memory level, y = achieved FLOP/s.
struct RooflineCoordinates {
  double intensity = 0;
  double flopsPerSecond = 0;
  bool operator==(const RooflineCoordinates&) const = default;
};

// POINT's place at LEVEL; none when it cannot sit on log axes (no FLOPs, no time, or no LEVEL bytes).
std::optional<RooflineCoordinates> rooflineCoordinates(const RooflinePoint& point, MemoryLevel level);

struct RooflinePair {
  std::string label;         // the kernel name both points carry
  size_t a = 0;              // index into A's points
  size_t b = 0;              // index into B's points
  RooflineCoordinates from;  // A's place
  RooflineCoordinates to;    // B's place
};

// Pairs the points of A and B (kernels by name, as rooflinePoints groups them) that carry the same label and
// can both be drawn at LEVEL. A label held by one point on each side pairs whatever the device ids; a label
// held by several points on a side (one per device) pairs only points of the same device. In A's order.
std::vector<RooflinePair> pairRooflinePoints(const std::vector<RooflinePoint>& a, const std::vector<RooflinePoint>& b,
                                             MemoryLevel level);

}  // namespace gpuscope
