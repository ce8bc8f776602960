#include "core/diff/roofline_pairs.h"

#include <unordered_map>

namespace gpuscope {

std::optional<RooflineCoordinates> rooflineCoordinates(const RooflinePoint& point, MemoryLevel level) {
  auto assessment = assessPoint(point, DeviceRoofs{});
  const auto& intensity = assessment.intensityOf(level);
  if (!intensity || *intensity <= 0 || assessment.achievedFlopsPerSecond <= 0) return std::nullopt;
  return RooflineCoordinates{*intensity, assessment.achievedFlopsPerSecond};
}

std::vector<RooflinePair> pairRooflinePoints(const std::vector<RooflinePoint>& a, const std::vector<RooflinePoint>& b,
                                             MemoryLevel level) {
  std::unordered_map<std::string, std::vector<size_t>> inA, inB;
  for (size_t i = 0; i < a.size(); ++i) inA[a[i].label].push_back(i);
  for (size_t i = 0; i < b.size(); ++i) inB[b[i].label].push_back(i);
  std::vector<RooflinePair> pairs;
  for (size_t i = 0; i < a.size(); ++i) {
    auto other = inB.find(a[i].label);
    if (other == inB.end()) continue;
    std::optional<size_t> match;
    if (inA[a[i].label].size() == 1 && other->second.size() == 1) {
      match = other->second.front();
    } else {
      for (size_t j : other->second)
        if (b[j].deviceId == a[i].deviceId) match = j;
    }
    if (!match) continue;
    auto from = rooflineCoordinates(a[i], level);
    auto to = rooflineCoordinates(b[*match], level);
    if (!from || !to) continue;
    pairs.push_back({a[i].label, i, *match, *from, *to});
  }
  return pairs;
}

}  // namespace gpuscope
