#include "core/export/perfetto_trace_export.h"

#include <unordered_map>

#include "core/export/event_category.h"
#include "core/export/export_groups.h"
#include "core/export/gpu_annotations.h"
#include "core/export/protobuf_writer.h"
#include "core/export/valid_utf8.h"

namespace gpuscope {
namespace {

namespace pb = perfetto_proto;

constexpr uint32_t kSequenceId = 1;

// A flow's id, made from the GPU work it ends at, so both ends compute it alone and no two flows share one.
uint64_t flowId(EventRef work) { return ((uint64_t{work.track} << 44) | (uint64_t{work.lane} << 32) | work.index) + 1; }

class PerfettoTraceWriter {
 public:
  PerfettoTraceWriter(const Trace& trace, const ExportFacts& facts, ExportOutput& out)
      : trace_(trace),
        facts_(facts),
        out_(out),
        categories_(trace, facts),
        annotations_(gpuAnnotations(trace, categories_)) {
    // Timestamps are unsigned: a trace whose clock starts below zero is shifted, and the snapshot says so.
    offset_ = trace.startTime() < 0 ? -trace.startTime() : 0;
  }

  ExportSummary run() {
    writeClockSnapshot();
    for (const auto& process : trace_.processes()) writeProcessTrack(process);
    for (const auto& device : trace_.devices())
      if (!device.streams.empty()) writeDeviceTrack(device);
    for (const auto& group : exportGroups(trace_)) writeGroup(group);
    summary_.bytesWritten = out_.bytesWritten();
    return summary_;
  }

 private:
  void emit(const ProtoMessage& packet) {
    frame_.clear();  // reused: its buffer keeps its capacity from packet to packet
    frame_.message(pb::kTracePacket, packet);
    out_.write(frame_.data());
  }

  void writeClockSnapshot() {
    ProtoMessage packet;
    packet.varint(pb::kPacketSequenceId, kSequenceId);
    packet.varint(pb::kPacketSequenceFlags, pb::kIncrementalStateCleared);
    if (facts_.sessionStartUtcNs) {
      ProtoMessage snapshot, boottime, realtime;
      boottime.varint(pb::kClockId, pb::kClockBoottime);
      boottime.varint(pb::kClockTimestamp, static_cast<uint64_t>(offset_));
      realtime.varint(pb::kClockId, pb::kClockRealtime);
      realtime.varint(pb::kClockTimestamp, static_cast<uint64_t>(*facts_.sessionStartUtcNs));
      snapshot.message(pb::kClockSnapshotClock, boottime);
      snapshot.message(pb::kClockSnapshotClock, realtime);
      packet.message(pb::kPacketClockSnapshot, snapshot);
      packet.varint(pb::kPacketTimestamp, static_cast<uint64_t>(offset_));
    }
    emit(packet);
  }

  void writeTrack(uint64_t uuid, const ProtoMessage& descriptorBody) {
    ProtoMessage descriptor;
    descriptor.varint(pb::kTrackUuid, uuid);
    ProtoMessage packet;
    packet.varint(pb::kPacketSequenceId, kSequenceId);
    std::string body = descriptor.data() + descriptorBody.data();
    packet.bytes(pb::kPacketTrackDescriptor, body);
    emit(packet);
  }

  void writeProcessTrack(const ProcessInfo& process) {
    uint64_t uuid = nextUuid_++;
    processUuid_[process.pid] = uuid;
    ProtoMessage body, descriptor;
    descriptor.signedVarint(pb::kProcessPid, process.pid);
    if (!process.name.empty()) descriptor.bytes(pb::kProcessName, validUtf8(process.name));
    body.message(pb::kTrackProcess, descriptor);
    writeTrack(uuid, body);
  }

  void writeDeviceTrack(const DeviceInfo& device) {
    uint64_t uuid = nextUuid_++;
    deviceUuid_[device.id] = uuid;
    std::string label = "GPU " + std::to_string(device.id);
    if (!device.name.empty() && device.name != label) label += " (" + device.name + ")";
    ProtoMessage body;
    body.bytes(pb::kTrackName, validUtf8(label));
    writeTrack(uuid, body);
  }

  // The track of GROUP's LAYER: the thread's own track, a GPU stream's, or a sibling for overlapping ranges.
  uint64_t writeGroupTrack(const ExportGroup& group, size_t layer) {
    uint64_t uuid = nextUuid_++;
    ProtoMessage body;
    std::string suffix = layer ? " overlapping " + std::to_string(layer) : "";
    if (group.gpu) {
      body.varint(pb::kTrackParentUuid, deviceUuid_[group.pid]);
      body.bytes(pb::kTrackName, "GPU " + std::to_string(group.pid) + " stream " + std::to_string(group.tid) + suffix);
    } else if (layer == 0) {
      ProtoMessage thread;
      thread.signedVarint(pb::kThreadPid, group.pid);
      thread.signedVarint(pb::kThreadTid, group.tid);
      thread.bytes(pb::kThreadName, validUtf8(group.name));
      body.message(pb::kTrackThread, thread);
    } else {
      body.varint(pb::kTrackParentUuid, processUuid_[group.pid]);
      body.bytes(pb::kTrackName, validUtf8(group.name + suffix));
    }
    writeTrack(uuid, body);
    return uuid;
  }

  void writeGroup(const ExportGroup& group) {
    auto layers = groupLayers(trace_, group, annotations_);
    if (layers.size() > 1) summary_.overlapRows += layers.size() - 1;
    for (size_t layer = 0; layer < layers.size(); ++layer) {
      uint64_t uuid = writeGroupTrack(group, layer);
      std::vector<TimeNs> openEnds;  // innermost last
      for (const auto& slice : layers[layer]) {
        while (!openEnds.empty() && openEnds.back() <= slice.start) {
          writeEnd(uuid, openEnds.back());
          openEnds.pop_back();
        }
        writeBegin(uuid, slice);
        openEnds.push_back(slice.end);
      }
      for (; !openEnds.empty(); openEnds.pop_back()) writeEnd(uuid, openEnds.back());
    }
  }

  const std::string& name(EventRef ref) {
    StringId id = trace_.track(ref.track).isGpu() ? trace_.longNameId(ref) : trace_.lane(ref).name[ref.index];
    auto [it, added] = names_.try_emplace(id);
    if (added) it->second = validUtf8(trace_.string(id));
    return it->second;
  }

  void writeBegin(uint64_t uuid, const LayoutSlice& slice) {
    if (isGpuAnnotation(slice.ref)) return writeGpuAnnotationBegin(uuid, slice);
    const auto& track = trace_.track(slice.ref.track);
    uint32_t correlation = trace_.lane(slice.ref).correlation[slice.ref.index];
    event_.clear();
    event_.varint(pb::kEventType, pb::kSliceBegin);
    event_.varint(pb::kEventTrackUuid, uuid);
    event_.bytes(pb::kEventCategory, categories_.of(slice.ref));
    event_.bytes(pb::kEventName, name(slice.ref));
    if (correlation) {
      ProtoMessage annotation;
      annotation.bytes(pb::kAnnotationName, "correlation");
      annotation.varint(pb::kAnnotationUint, correlation);
      event_.message(pb::kEventDebugAnnotation, annotation);
      writeFlows(slice.ref, track);
    }
    writeEventPacket(slice.start);
    ++summary_.slices;
    if (track.kind == TrackKind::GpuKernels) ++summary_.kernels;
  }

  void writeGpuAnnotationBegin(uint64_t uuid, const LayoutSlice& slice) {
    const auto& range = annotations_[slice.ref.index].range;
    event_.clear();
    event_.varint(pb::kEventType, pb::kSliceBegin);
    event_.varint(pb::kEventTrackUuid, uuid);
    event_.bytes(pb::kEventCategory, "gpu_user_annotation");
    event_.bytes(pb::kEventName, name(range));
    writeEventPacket(slice.start);
    ++summary_.slices;
    ++summary_.gpuAnnotations;
  }

  // A CUDA call starts one flow per piece of GPU work it launched; the work ends it.
  void writeFlows(EventRef ref, const Track& track) {
    if (track.isGpu()) {
      if (!trace_.launchingCall(ref)) return;
      event_.fixed64(pb::kEventTerminatingFlowIds, flowId(ref));
      ++summary_.flows;
      return;
    }
    if (track.kind != TrackKind::CudaApi) return;
    for (const auto& work : trace_.launchedWork(ref))
      if (trace_.launchingCall(work) == ref) event_.fixed64(pb::kEventFlowIds, flowId(work));
  }

  void writeEnd(uint64_t uuid, TimeNs end) {
    event_.clear();
    event_.varint(pb::kEventType, pb::kSliceEnd);
    event_.varint(pb::kEventTrackUuid, uuid);
    writeEventPacket(end);
  }

  void writeEventPacket(TimeNs time) {
    packet_.clear();
    packet_.varint(pb::kPacketTimestamp, static_cast<uint64_t>(time + offset_));
    packet_.varint(pb::kPacketSequenceId, kSequenceId);
    packet_.message(pb::kPacketTrackEvent, event_);
    emit(packet_);
  }

  const Trace& trace_;
  const ExportFacts& facts_;
  ExportOutput& out_;
  EventCategories categories_;
  std::vector<GpuAnnotation> annotations_;
  TimeNs offset_ = 0;
  uint64_t nextUuid_ = 1;
  std::unordered_map<uint32_t, uint64_t> processUuid_, deviceUuid_;
  std::unordered_map<StringId, std::string> names_;
  ProtoMessage event_, packet_, frame_;
  ExportSummary summary_;
};

}  // namespace

ExportSummary writePerfettoTrace(const Trace& trace, const ExportFacts& facts, ExportOutput& out) {
  return PerfettoTraceWriter(trace, facts, out).run();
}

}  // namespace gpuscope
