"""Decodes a gpuscope Perfetto export with the perfetto package's own protos (not gpuscope's code) and
checks: every slice closed on its track, every flow started once and ended once, every event on a
described track, a clock snapshot with REALTIME, and as many kernels as the input trace has."""
import collections
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

from expected_counts import kernel_count

BEGIN = pb.TrackEvent.TYPE_SLICE_BEGIN
END = pb.TrackEvent.TYPE_SLICE_END


def main(pftrace: str, source: str) -> int:
    trace = pb.Trace()
    with open(pftrace, "rb") as f:
        trace.ParseFromString(f.read())
    described = set()
    open_slices = collections.Counter()
    flow_starts, flow_ends = collections.Counter(), collections.Counter()
    kernels = 0
    clocks = {}
    problems = []
    for packet in trace.packet:
        if packet.HasField("clock_snapshot"):
            clocks = {c.clock_id: c.timestamp for c in packet.clock_snapshot.clocks}
        if packet.HasField("track_descriptor"):
            described.add(packet.track_descriptor.uuid)
        if not packet.HasField("track_event"):
            continue
        event = packet.track_event
        if event.track_uuid not in described:
            problems.append(f"event on undescribed track {event.track_uuid}")
        if event.type == BEGIN:
            open_slices[event.track_uuid] += 1
            kernels += "kernel" in event.categories
        elif event.type == END:
            open_slices[event.track_uuid] -= 1
            if open_slices[event.track_uuid] < 0:
                problems.append(f"END without BEGIN on track {event.track_uuid}")
        flow_starts.update(event.flow_ids)
        flow_ends.update(event.terminating_flow_ids)
    unclosed = {t: n for t, n in open_slices.items() if n}
    if unclosed:
        problems.append(f"slices left open on {len(unclosed)} tracks")
    unpaired = [i for i in set(flow_starts) | set(flow_ends) if flow_starts[i] != 1 or flow_ends[i] != 1]
    if unpaired:
        problems.append(f"{len(unpaired)} flows not started and ended exactly once")
    if pb.BUILTIN_CLOCK_REALTIME not in clocks or pb.BUILTIN_CLOCK_BOOTTIME not in clocks:
        problems.append("no clock snapshot mapping BOOTTIME to REALTIME")
    expected = kernel_count(source)
    if kernels != expected:
        problems.append(f"{kernels} kernel slices, the input has {expected}")
    print(f"{len(trace.packet)} packets, {len(described)} tracks, {kernels} kernels, {len(flow_starts)} flows")
    for problem in problems:
        print("FAILED:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
