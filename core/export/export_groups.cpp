#include "core/export/export_groups.h"

#include <algorithm>
#include <map>

namespace gpuscope {
namespace {

std::string threadLabel(const ProcessInfo& process, const ThreadInfo& thread) {
  const std::string& name = thread.name.empty() ? process.name : thread.name;
  return "thread " + std::to_string(thread.tid) + (name.empty() ? "" : " (" + name + ")");
}

}  // namespace

std::vector<ExportGroup> exportGroups(const Trace& trace, const EventCategories& categories) {
  std::vector<ExportGroup> groups;
  for (const auto& process : trace.processes())
    for (const auto& thread : process.threads) {
      // GPU user annotations a PyTorch trace brought in are written again on their streams, by projection
      // (gpuAnnotations), not as the thread rows the importer had to put them on.
      std::vector<uint32_t> tracks;
      for (uint32_t index : thread.tracks)
        if (trace.track(index).kind != TrackKind::Nvtx || categories.of({index, 0, 0}) != "gpu_user_annotation")
          tracks.push_back(index);
      if (!tracks.empty()) groups.push_back({false, process.pid, thread.tid, threadLabel(process, thread), tracks});
    }
  // Streams of one device with the same id (another context or process) share a row, as in Kineto.
  std::map<std::pair<uint32_t, uint32_t>, ExportGroup> streams;
  for (const auto& device : trace.devices())
    for (const auto& stream : device.streams) {
      auto& group = streams[{device.id, stream.streamId}];
      group.gpu = true;
      group.pid = device.id;
      group.tid = stream.streamId;
      group.name = "stream " + std::to_string(stream.streamId);
      group.tracks.insert(group.tracks.end(), stream.tracks.begin(), stream.tracks.end());
    }
  for (auto& [key, group] : streams) groups.push_back(std::move(group));
  return groups;
}

std::vector<std::vector<LayoutSlice>> groupLayers(const Trace& trace, const ExportGroup& group,
                                                  const std::vector<GpuAnnotation>& annotations) {
  std::vector<LayoutSlice> slices;
  for (uint32_t i = 0; group.gpu && i < annotations.size(); ++i) {
    const auto& a = annotations[i];
    if (a.device == group.pid && a.stream == group.tid) slices.push_back({a.start, a.end, {kGpuAnnotationTrack, 0, i}});
  }
  for (uint32_t trackIndex : group.tracks) {
    const auto& track = trace.track(trackIndex);
    for (uint32_t laneIndex = 0; laneIndex < track.lanes.size(); ++laneIndex) {
      const auto& lane = track.lanes[laneIndex];
      for (uint32_t i = 0; i < lane.size(); ++i)
        slices.push_back({lane.start[i], std::max(lane.start[i], lane.end(i)), {trackIndex, laneIndex, i}});
    }
  }
  return nestedLayers(std::move(slices));
}

}  // namespace gpuscope
