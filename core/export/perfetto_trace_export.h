#pragma once
// Writing a trace as Perfetto's protobuf trace (Trace { repeated TracePacket packet = 1 }) with TrackEvent
// packets: a process track per process and a thread track per thread, a "GPU N" track per device with a
// child track per stream ("GPU 0 stream 7"), slices as TYPE_SLICE_BEGIN/END pairs on one packet sequence,
// a flow from each CUDA call to each piece of GPU work it launched, and a ClockSnapshot that ties the
// trace's clock (written as BOOTTIME, Perfetto's default trace clock) to REALTIME.
#include "core/export/export_facts.h"
#include "core/export/export_output.h"
#include "core/export/export_summary.h"
#include "core/model/trace.h"

namespace gpuscope {

// Field numbers and enum values of Perfetto's protos (perfetto/trace/*.proto), as far as they are used.
namespace perfetto_proto {
inline constexpr uint32_t kTracePacket = 1;               // Trace.packet
inline constexpr uint32_t kPacketTimestamp = 8;           // TracePacket.timestamp
inline constexpr uint32_t kPacketSequenceId = 10;         // TracePacket.trusted_packet_sequence_id
inline constexpr uint32_t kPacketTrackEvent = 11;         // TracePacket.track_event
inline constexpr uint32_t kPacketSequenceFlags = 13;      // TracePacket.sequence_flags
inline constexpr uint32_t kPacketClockSnapshot = 6;       // TracePacket.clock_snapshot
inline constexpr uint32_t kPacketTrackDescriptor = 60;    // TracePacket.track_descriptor
inline constexpr uint32_t kClockSnapshotClock = 1;        // ClockSnapshot.clocks
inline constexpr uint32_t kClockId = 1;                   // ClockSnapshot.Clock.clock_id
inline constexpr uint32_t kClockTimestamp = 2;            // ClockSnapshot.Clock.timestamp
inline constexpr uint32_t kTrackUuid = 1;                 // TrackDescriptor.uuid
inline constexpr uint32_t kTrackName = 2;                 // TrackDescriptor.name
inline constexpr uint32_t kTrackProcess = 3;              // TrackDescriptor.process
inline constexpr uint32_t kTrackThread = 4;               // TrackDescriptor.thread
inline constexpr uint32_t kTrackParentUuid = 5;           // TrackDescriptor.parent_uuid
inline constexpr uint32_t kProcessPid = 1;                // ProcessDescriptor.pid
inline constexpr uint32_t kProcessName = 6;               // ProcessDescriptor.process_name
inline constexpr uint32_t kThreadPid = 1;                 // ThreadDescriptor.pid
inline constexpr uint32_t kThreadTid = 2;                 // ThreadDescriptor.tid
inline constexpr uint32_t kThreadName = 5;                // ThreadDescriptor.thread_name
inline constexpr uint32_t kEventDebugAnnotation = 4;      // TrackEvent.debug_annotations
inline constexpr uint32_t kEventType = 9;                 // TrackEvent.type
inline constexpr uint32_t kEventTrackUuid = 11;           // TrackEvent.track_uuid
inline constexpr uint32_t kEventCategory = 22;            // TrackEvent.categories
inline constexpr uint32_t kEventName = 23;                // TrackEvent.name
inline constexpr uint32_t kEventFlowIds = 47;             // TrackEvent.flow_ids (fixed64)
inline constexpr uint32_t kEventTerminatingFlowIds = 48;  // TrackEvent.terminating_flow_ids (fixed64)
inline constexpr uint32_t kAnnotationUint = 3;            // DebugAnnotation.uint_value
inline constexpr uint32_t kAnnotationName = 10;           // DebugAnnotation.name
inline constexpr uint64_t kSliceBegin = 1;                // TrackEvent.Type.TYPE_SLICE_BEGIN
inline constexpr uint64_t kSliceEnd = 2;                  // TrackEvent.Type.TYPE_SLICE_END
inline constexpr uint64_t kClockRealtime = 1;             // BuiltinClock.BUILTIN_CLOCK_REALTIME
inline constexpr uint64_t kClockBoottime = 6;             // BuiltinClock.BUILTIN_CLOCK_BOOTTIME
inline constexpr uint64_t kIncrementalStateCleared = 1;   // TracePacket.SEQ_INCREMENTAL_STATE_CLEARED
}  // namespace perfetto_proto

// Streams the packets to OUT (the caller commits it).
ExportSummary writePerfettoTrace(const Trace& trace, const ExportFacts& facts, ExportOutput& out);

}  // namespace gpuscope
