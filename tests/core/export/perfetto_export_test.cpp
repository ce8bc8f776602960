// The Perfetto export read back with an independent protobuf reader: every slice closed on its own
// track, every flow started once and ended once, as many kernels as the trace has, and the clock
// snapshot tying the trace clock to REALTIME.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/export/export_trace.h"
#include "core/export/perfetto_trace_export.h"
#include "core/export/valid_utf8.h"
#include "core/open/open_trace.h"
#include "tests/core/export/export_test_util.h"
#include "tests/core/export/perfetto_reader.h"

namespace gpuscope {
namespace {

using test::DecodedTrace;

struct ExportedPerfetto {
  std::unique_ptr<Trace> trace;
  ExportSummary summary;
  DecodedTrace decoded;
};

ExportedPerfetto exportAndDecode(const std::string& input) {
  test::ExportTempPath out("out.pftrace");
  ExportedPerfetto e;
  e.trace = openTrace(input).load();
  e.summary = exportTrace(*e.trace, ExportFormat::Perfetto, out.path);
  e.decoded = test::decodePerfettoTrace(test::readFile(out.path));
  return e;
}

size_t eventsInTrace(const Trace& trace) {
  size_t n = 0;
  for (const auto& track : trace.tracks()) n += track.eventCount();
  return n;
}

// Every BEGIN has its END on the same track, ENDs never outnumber BEGINs, and time never goes back.
void expectEverySliceClosed(const DecodedTrace& decoded) {
  std::map<uint64_t, int> open;
  std::map<uint64_t, uint64_t> lastTime;
  for (const auto& event : decoded.events) {
    ASSERT_EQ(event.sequence, 1u);
    ASSERT_TRUE(decoded.tracks.count(event.track)) << "an event on a track with no descriptor";
    ASSERT_GE(event.timestamp, lastTime[event.track]) << "time went back on track " << event.track;
    lastTime[event.track] = event.timestamp;
    if (event.type == perfetto_proto::kSliceBegin) ++open[event.track];
    if (event.type == perfetto_proto::kSliceEnd) {
      ASSERT_GE(--open[event.track], 0) << "an END without a BEGIN";
    }
  }
  for (const auto& [track, count] : open) EXPECT_EQ(count, 0) << "track " << track << " left slices open";
}

// Each flow id is started by exactly one slice and ended by exactly one slice that starts no earlier
// (Perfetto binds flows in time order).
size_t expectFlowsPaired(const DecodedTrace& decoded) {
  std::map<uint64_t, std::pair<int, int>> flows;  // id -> (starts, ends)
  std::map<uint64_t, uint64_t> startTime, endTime;
  for (const auto& event : decoded.events) {
    for (auto id : event.flows) {
      ++flows[id].first;
      startTime[id] = event.timestamp;
    }
    for (auto id : event.terminatingFlows) {
      ++flows[id].second;
      endTime[id] = event.timestamp;
    }
  }
  for (const auto& [id, ends] : flows) {
    EXPECT_EQ(ends, std::make_pair(1, 1)) << "flow " << id;
    EXPECT_LE(startTime[id], endTime[id]) << "flow " << id << " goes back in time";
  }
  return flows.size();
}

size_t beginsOf(const DecodedTrace& decoded, std::string_view category) {
  size_t n = 0;
  for (const auto& event : decoded.events) n += event.type == perfetto_proto::kSliceBegin && event.category == category;
  return n;
}

TEST(PerfettoExport, NsysFileEverySliceClosedFlowsPairedKernelsCounted) {
  auto e = exportAndDecode(test::fixturePath("nsys/loader2.sqlite"));
  expectEverySliceClosed(e.decoded);
  EXPECT_EQ(expectFlowsPaired(e.decoded), e.summary.flows);
  EXPECT_EQ(e.trace->counts().kernels, 984u);
  EXPECT_EQ(beginsOf(e.decoded, "kernel"), e.trace->counts().kernels);
  EXPECT_EQ(beginsOf(e.decoded, "gpu_memcpy"), e.trace->counts().memcpys);
  EXPECT_EQ(beginsOf(e.decoded, "gpu_memset"), e.trace->counts().memsets);
  EXPECT_EQ(e.summary.slices, eventsInTrace(*e.trace) + e.summary.gpuAnnotations);
  EXPECT_EQ(beginsOf(e.decoded, "gpu_user_annotation"), e.summary.gpuAnnotations);
  // Every kernel, copy and memset of this file was launched by a recorded call.
  EXPECT_EQ(e.summary.flows, e.trace->counts().kernels + e.trace->counts().memcpys + e.trace->counts().memsets);
}

TEST(PerfettoExport, StreamTracksNamedAndClockSnapshotToRealtime) {
  auto e = exportAndDecode(test::fixturePath("nsys/loader2.sqlite"));
  std::set<std::string> names;
  for (const auto& [uuid, track] : e.decoded.tracks) names.insert(track.name);
  EXPECT_TRUE(names.count("GPU 0 stream 7"));
  ASSERT_TRUE(e.decoded.clocks.count(perfetto_proto::kClockRealtime));
  ASSERT_TRUE(e.decoded.clocks.count(perfetto_proto::kClockBoottime));
  // loader2.sqlite's TARGET_INFO_SESSION_START_TIME: trace time 0 is this wall-clock time.
  EXPECT_EQ(e.decoded.clocks[perfetto_proto::kClockRealtime] - e.decoded.clocks[perfetto_proto::kClockBoottime],
            1795318595866316752u);
}

TEST(PerfettoExport, PyTorchTraceKeepsCpuOpsAndKernels) {
  auto e = exportAndDecode(test::fixturePath("kineto/loader2_kineto.json.gz"));
  expectEverySliceClosed(e.decoded);
  expectFlowsPaired(e.decoded);
  EXPECT_EQ(beginsOf(e.decoded, "kernel"), 984u);
  EXPECT_EQ(beginsOf(e.decoded, "cpu_op"), 3454u);  // the trace's own cpu_op events
  EXPECT_EQ(beginsOf(e.decoded, "cuda_runtime"), 2453u);
  EXPECT_EQ(beginsOf(e.decoded, "cuda_driver"), 24u);
  // Optimizer.step projected onto stream 7 once per step, as the trace's own gpu_user_annotation events.
  EXPECT_EQ(beginsOf(e.decoded, "gpu_user_annotation"), 24u);
}

TEST(PerfettoExport, OverlappingRangesGetTheirOwnTrackAndNamesStayUtf8) {
  test::ExportTempPath input("awkward.sqlite");
  test::writeAwkwardTrace(input.path);
  auto e = exportAndDecode(input.path);
  expectEverySliceClosed(e.decoded);
  EXPECT_EQ(e.summary.overlapRows, 1u);
  std::set<std::string> names;
  for (const auto& [uuid, track] : e.decoded.tracks) names.insert(track.name);
  EXPECT_TRUE(names.count("thread 100 (trainer) overlapping 1"));
  EXPECT_TRUE(names.count("GPU 0 stream 9"));
  for (const auto& text : e.decoded.strings) EXPECT_EQ(validUtf8(text), text);
  // Two processes share correlation id 7: each call still ends up at its own kernel.
  EXPECT_EQ(expectFlowsPaired(e.decoded), 4u);
  std::map<uint64_t, std::string> startedBy, endedAt;
  for (const auto& event : e.decoded.events) {
    for (auto id : event.flows) startedBy[id] = event.name;
    for (auto id : event.terminatingFlows) endedAt[id] = event.name;
  }
  for (const auto& [id, call] : startedBy)
    if (endedAt[id] == "worker_kernel") {
      EXPECT_EQ(call, "cuLaunchKernel");
    }
}

}  // namespace
}  // namespace gpuscope
