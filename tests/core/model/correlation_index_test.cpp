// CorrelationIndex against a brute-force search over the lanes, on lanes whose ids rise, lanes whose
// ids do not, several processes sharing ids, events without an id and ids met more than once.
#include "core/model/correlation_index.h"

#include <gtest/gtest.h>

#include <random>

namespace gpuscope {
namespace {

Track gpuTrack(uint32_t pid, std::vector<std::vector<uint32_t>> laneIds) {
  Track track;
  track.kind = TrackKind::GpuKernels;
  track.pid = pid;
  for (auto& ids : laneIds) {
    Lane lane;
    lane.correlation = ids;
    lane.start.assign(ids.size(), 0);
    track.lanes.push_back(std::move(lane));
  }
  return track;
}

std::vector<EventRef> bruteForce(const std::vector<Track>& tracks, uint32_t pid, uint32_t correlation) {
  std::vector<EventRef> found;
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (!tracks[t].isGpu() || tracks[t].pid != pid) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const auto& ids = tracks[t].lanes[l].correlation;
      for (uint32_t i = 0; i < ids.size(); ++i)
        if (ids[i] == correlation) found.push_back({t, l, i});
    }
  }
  return found;
}

auto isGpu = [](const Track& t) { return t.isGpu(); };

TEST(CorrelationIndex, FindsEveryEventAsABruteForceSearchDoes) {
  std::mt19937_64 random(5);
  std::vector<Track> tracks;
  for (uint32_t pid : {100u, 200u, 100u}) {
    std::vector<std::vector<uint32_t>> lanes;
    for (int l = 0; l < 3; ++l) {
      std::vector<uint32_t> ids;
      uint32_t id = 0;
      for (int i = 0; i < 2000; ++i) {
        id += static_cast<uint32_t>(random() % 4);  // rising, with repeats
        ids.push_back(random() % 10 == 0 ? 0 : id);
      }
      if (l == 2) std::shuffle(ids.begin(), ids.end(), random);  // a lane out of order
      lanes.push_back(ids);
    }
    tracks.push_back(gpuTrack(pid, lanes));
  }
  Track api = gpuTrack(100, {{1, 2, 3}});
  api.kind = TrackKind::CudaApi;  // not included: its ids must not be found
  tracks.insert(tracks.begin() + 1, api);

  auto index = CorrelationIndex::build(tracks, isGpu);
  size_t correlated = 0;
  for (const auto& t : tracks)
    if (t.isGpu())
      for (const auto& lane : t.lanes)
        correlated += lane.size() - std::count(lane.correlation.begin(), lane.correlation.end(), 0u);
  EXPECT_EQ(index.size(), correlated);
  for (uint32_t pid : {100u, 200u, 300u}) {
    for (uint32_t id = 0; id < 3000; id += 7) {
      SCOPED_TRACE("pid " + std::to_string(pid) + " id " + std::to_string(id));
      auto want = id == 0 ? std::vector<EventRef>{} : bruteForce(tracks, pid, id);
      auto got = index.find(tracks, pid, id);
      std::sort(got.begin(), got.end(),
                [](auto a, auto b) { return std::tie(a.track, a.lane, a.index) < std::tie(b.track, b.lane, b.index); });
      EXPECT_EQ(want, got);
    }
  }
}

TEST(CorrelationIndex, EmptyTracksAndEmptyLanesFindNothing) {
  std::vector<Track> tracks = {gpuTrack(1, {{}, {0, 0}, {}})};
  auto index = CorrelationIndex::build(tracks, isGpu);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_TRUE(index.find(tracks, 1, 0).empty());
  EXPECT_TRUE(index.find(tracks, 1, 5).empty());
  std::vector<Track> none;
  EXPECT_TRUE(CorrelationIndex::build(none, isGpu).find(none, 1, 1).empty());
}

TEST(CorrelationIndex, TakesFourBytesPerIndexedEvent) {
  std::vector<uint32_t> ids(100'000);
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i + 1;
  std::vector<Track> tracks = {gpuTrack(1, {ids})};
  auto index = CorrelationIndex::build(tracks, isGpu);
  EXPECT_LE(index.residentBytes(), ids.size() * 4 + 64);
  ASSERT_EQ(index.find(tracks, 1, 77'777).size(), 1u);
  EXPECT_EQ(index.find(tracks, 1, 77'777)[0].index, 77'776u);
}

}  // namespace
}  // namespace gpuscope
