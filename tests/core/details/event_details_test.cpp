// describeEvent on the transpose fixture: every field checked against SQL on the same file.
#include "core/details/event_details.h"

#include <gtest/gtest.h>

#include <optional>

#include "core/db/sqlite_database.h"
#include "core/details/detail_text.h"
#include "core/model/trace_loader.h"
#include "core/open/open_trace.h"

namespace gpuscope {
namespace {

std::string fixture(const std::string& name) { return std::string(GPUSCOPE_FIXTURES) + "/nsys/" + name; }

class EventDetailsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { trace_ = loadTrace(fixture("transpose.sqlite")).release(); }
  static void TearDownTestSuite() {
    delete trace_;
    trace_ = nullptr;
  }

  // The event of KIND whose source rowid is ROW (and, for memory, whose style says memset or not).
  static std::optional<EventRef> eventOf(TrackKind kind, uint32_t row, std::optional<bool> memset = std::nullopt) {
    const auto& tracks = trace_->tracks();
    for (uint32_t t = 0; t < tracks.size(); ++t) {
      if (tracks[t].kind != kind) continue;
      for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
        const Lane& lane = tracks[t].lanes[l];
        for (uint32_t i = 0; i < lane.size(); ++i) {
          bool isMemset = !lane.style.empty() && lane.style[i] == kMemsetStyle;
          if (lane.row[i] == row && (!memset || *memset == isMemset)) return EventRef{t, l, i};
        }
      }
    }
    return std::nullopt;
  }

  static std::string value(const EventDetails& details, std::string_view label, std::string_view section = {}) {
    const DetailField* field = details.field(label, section);
    return field ? field->value : "<missing " + std::string(label) + ">";
  }

  static int64_t sqlInt(const std::string& sql) {
    auto stmt = trace_->database().prepare(sql);
    EXPECT_TRUE(stmt.step()) << sql;
    return stmt.int64(0);
  }
  static std::string sqlText(const std::string& sql) {
    auto stmt = trace_->database().prepare(sql);
    EXPECT_TRUE(stmt.step()) << sql;
    return std::string(stmt.text(0));
  }

  static Trace* trace_;
};

Trace* EventDetailsTest::trace_ = nullptr;

TEST_F(EventDetailsTest, KernelFieldsMatchTheKernelTable) {
  auto kernel = eventOf(TrackKind::GpuKernels, 1);
  ASSERT_TRUE(kernel);
  auto details = describeEvent(*trace_, *kernel);
  const std::string where = " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = 1";
  EXPECT_EQ(details.kind, "Kernel");
  EXPECT_EQ(details.title, "transposeNaive");
  EXPECT_EQ(value(details, "Name"),
            sqlText("SELECT value FROM StringIds WHERE id = (SELECT demangledName" + where + ")"));
  EXPECT_EQ(value(details, "Name"), "transposeNaive(float *, const float *, int, int)");
  EXPECT_EQ(value(details, "Grid"), sqlText("SELECT gridX || ' x ' || gridY || ' x ' || gridZ" + where));
  EXPECT_EQ(value(details, "Grid"), "256 x 128 x 1");
  EXPECT_EQ(value(details, "Block"), "32 x 8 x 1 (256 threads)");
  EXPECT_EQ(value(details, "Registers per thread"), std::to_string(sqlInt("SELECT registersPerThread" + where)));
  EXPECT_EQ(value(details, "Static shared memory"), "0 B");
  EXPECT_EQ(value(details, "Dynamic shared memory"), "0 B");
  EXPECT_EQ(value(details, "Local memory per thread"), "0 B");
  EXPECT_EQ(value(details, "Local memory total"), detail_text::bytes(sqlInt("SELECT localMemoryTotal" + where)));
  EXPECT_EQ(value(details, "Start"), detail_text::time(sqlInt("SELECT start" + where)));
  EXPECT_EQ(value(details, "End"), detail_text::time(sqlInt("SELECT end" + where)));
  EXPECT_EQ(value(details, "Duration"), detail_text::duration(sqlInt("SELECT end - start" + where)));
  EXPECT_EQ(value(details, "Device"), "NVIDIA H100 80GB HBM3 (device 0)");
  EXPECT_EQ(value(details, "Context"), std::to_string(sqlInt("SELECT contextId" + where)));
  EXPECT_EQ(value(details, "Stream"), std::to_string(sqlInt("SELECT streamId" + where)));
  EXPECT_EQ(value(details, "Correlation ID"), std::to_string(sqlInt("SELECT correlationId" + where)));
}

TEST_F(EventDetailsTest, KernelNamesItsLaunchingCallAndQueueLatency) {
  auto kernel = eventOf(TrackKind::GpuKernels, 1);
  ASSERT_TRUE(kernel);
  auto details = describeEvent(*trace_, *kernel);
  const std::string call = " FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = 128";
  ASSERT_TRUE(details.launchingCall);
  EXPECT_EQ(trace_->lane(*details.launchingCall).row[details.launchingCall->index], sqlInt("SELECT rowid" + call));
  const DetailField* api = details.field("API call", "Launched by");
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->value, "cudaLaunchKernel_v7000");
  EXPECT_EQ(api->link, details.launchingCall);
  EXPECT_EQ(value(details, "Thread", "Launched by"), "transpose (tid 469)");
  EXPECT_EQ(value(details, "API duration"), detail_text::duration(sqlInt("SELECT end - start" + call)));
  int64_t latency = sqlInt(
      "SELECT k.start - r.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
      " ON r.correlationId = k.correlationId WHERE k.rowid = 1");
  // This kernel started 3573 ns before cudaLaunchKernel returned: no queue time, as nsys counts it.
  ASSERT_EQ(latency, -3573);
  EXPECT_EQ(value(details, "Queue latency"), "none (started 3.573 us before the call returned)");
}

TEST_F(EventDetailsTest, KernelOccupancyFromTheDeviceLimits) {
  // transposeNaive: 256 threads, 18 registers, no shared memory on the H100 of the file: 8 blocks of 8 warps.
  auto details = describeEvent(*trace_, *eventOf(TrackKind::GpuKernels, 1));
  EXPECT_EQ(value(details, "Occupancy", "Theoretical occupancy"), "100.0 %");
  EXPECT_EQ(value(details, "Active warps per SM"), "64 of 64");
  EXPECT_EQ(value(details, "Active blocks per SM"), "8");
  EXPECT_EQ(value(details, "Limited by"), "warps per SM");
  EXPECT_EQ(value(details, "Block limit: registers"), "10");  // 18 * 32 -> 768 per warp; 4 * 21 = 84 warps, 84 / 8
}

TEST_F(EventDetailsTest, MemoryCopyAndSet) {
  auto copy = describeEvent(*trace_, *eventOf(TrackKind::GpuMemory, 1, false));
  EXPECT_EQ(copy.kind, "Memory copy");
  EXPECT_EQ(value(copy, "Kind"), "Host-to-Device");
  EXPECT_EQ(value(copy, "Bytes"), "134217728 B (128.00 MiB)");
  EXPECT_EQ(value(copy, "Source memory"), "Pageable");
  EXPECT_EQ(value(copy, "Destination memory"), "Device");
  int64_t duration = sqlInt("SELECT end - start FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE rowid = 1");
  EXPECT_EQ(value(copy, "Throughput"), detail_text::throughput(134217728, duration));
  EXPECT_EQ(value(copy, "Throughput"), "6.97 GB/s");
  EXPECT_TRUE(copy.launchingCall);

  auto set = describeEvent(*trace_, *eventOf(TrackKind::GpuMemory, 1, true));
  EXPECT_EQ(set.kind, "Memory set");
  EXPECT_EQ(value(set, "Bytes"), "134217728 B (128.00 MiB)");
  EXPECT_EQ(value(set, "Value"), "0");
  EXPECT_EQ(value(set, "Memory kind"), "Device");
}

TEST_F(EventDetailsTest, ApiCallLinksToItsKernel) {
  auto call = eventOf(TrackKind::CudaApi, 12);
  ASSERT_TRUE(call);
  auto details = describeEvent(*trace_, *call);
  EXPECT_EQ(details.kind, "CUDA API call");
  EXPECT_EQ(value(details, "API"), "CUDA runtime API");
  EXPECT_EQ(value(details, "Return value"), "0");
  EXPECT_EQ(value(details, "Correlation ID"), "128");
  EXPECT_EQ(value(details, "Thread"), "transpose (tid 469)");
  ASSERT_EQ(details.launchedWork.size(), 1u);
  EXPECT_EQ(details.launchedWork[0], *eventOf(TrackKind::GpuKernels, 1));
  const DetailField* work = details.field("Kernel", "GPU work");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ(work->link, details.launchedWork[0]);
  EXPECT_EQ(work->value.rfind("transposeNaive (", 0), 0u);
}

TEST_F(EventDetailsTest, NvtxRangeAndOsRuntimeCall) {
  int64_t naive = sqlInt("SELECT min(rowid) FROM NVTX_EVENTS WHERE text = 'naive'");
  auto range = describeEvent(*trace_, *eventOf(TrackKind::Nvtx, static_cast<uint32_t>(naive)));
  EXPECT_EQ(range.kind, "NVTX range");
  EXPECT_EQ(value(range, "Text"), "naive");
  EXPECT_EQ(value(range, "Type"), "Push/pop range");
  EXPECT_EQ(value(range, "Domain"), "default");
  EXPECT_EQ(range.field("Payload"), nullptr);  // the fixture's ranges carry none

  auto osrt = describeEvent(*trace_, *eventOf(TrackKind::OsRuntime, 1));
  EXPECT_EQ(osrt.kind, "OS runtime call");
  EXPECT_EQ(value(osrt, "Name"),
            sqlText("SELECT value FROM StringIds WHERE id = (SELECT nameId FROM OSRT_API WHERE rowid = 1)"));
  EXPECT_EQ(value(osrt, "Return value"), "0");
  EXPECT_EQ(value(osrt, "Nesting level"), "0");
  EXPECT_EQ(value(osrt, "Duration"), detail_text::duration(sqlInt("SELECT end - start FROM OSRT_API WHERE rowid = 1")));
}

TEST_F(EventDetailsTest, ReferenceOutsideTheTrace) {
  auto details = describeEvent(*trace_, EventRef{100000, 0, 0});
  EXPECT_EQ(details.title, "No such event");
  EXPECT_TRUE(details.sections.empty());
  EXPECT_FALSE(isValidEvent(*trace_, EventRef{0, 0, 1u << 30}));
}

TEST(DetailText, Formats) {
  EXPECT_EQ(detail_text::argbColour(0xFF00FF00u), "#00FF00");
  EXPECT_EQ(detail_text::argbColour(0x8000FF00u), "#8000FF00");
  EXPECT_EQ(detail_text::bytes(512), "512 B");
  EXPECT_EQ(detail_text::throughput(1000, 0), "");
  EXPECT_EQ(detail_text::throughput(2000, 1000), "2.00 GB/s");
  EXPECT_EQ(detail_text::percent(56.25), "56.2 %");
  EXPECT_EQ(detail_text::queueLatency(2500, 1000), "1.500 us");
  EXPECT_EQ(detail_text::queueLatency(1000, 1000), "0 ns");
}

}  // namespace
}  // namespace gpuscope

namespace gpuscope {
namespace {

// Every event kind of the PyTorch data-loader fixture describes without a problem, with its time fields.
TEST(EventDetails, Loader2FirstEventOfEveryTrackReadsCleanly) {
  auto trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  size_t described = 0;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const Track& track = trace->track(t);
    for (uint32_t l = 0; l < track.lanes.size(); ++l) {
      if (track.lanes[l].size() == 0) continue;
      auto details = describeEvent(*trace, EventRef{t, l, 0});
      EXPECT_EQ(details.field("Reading the file"), nullptr) << details.field("Reading the file")->value;
      EXPECT_NE(details.field("Duration"), nullptr) << track.label;
      EXPECT_FALSE(details.kind.empty());
      ++described;
    }
  }
  EXPECT_GT(described, 10u);
}

}  // namespace
}  // namespace gpuscope

namespace gpuscope {
namespace {

const Track* firstKernelTrack(const Trace& trace, uint32_t& index) {
  for (index = 0; index < trace.tracks().size(); ++index)
    if (trace.track(index).kind == TrackKind::GpuKernels) return &trace.track(index);
  return nullptr;
}

// Issue 40, point 9: a PyTorch profiler trace's clock counts from the profiler's own zero, so its details say the
// trace start without a meaningless "session time 5053389.334 s"; an nsys export still names its session time.
TEST(CountedFrom, APyTorchProfilerTraceHasNoSessionTime) {
  auto kineto = openTrace(std::string(GPUSCOPE_FIXTURES) + "/kineto/loader2_kineto.json.gz").load();
  uint32_t track = 0;
  ASSERT_TRUE(firstKernelTrack(*kineto, track));
  EventDetails details = describeEvent(*kineto, EventRef{track, 0, 0}, TimeBase::Trace);
  const DetailField* counted = details.field("Counted from");
  ASSERT_NE(counted, nullptr);
  EXPECT_EQ(counted->value.find("session time"), std::string::npos) << counted->value;
  EXPECT_NE(counted->value.find("no session start"), std::string::npos) << counted->value;

  auto nsys = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  ASSERT_TRUE(firstKernelTrack(*nsys, track));
  details = describeEvent(*nsys, EventRef{track, 0, 0}, TimeBase::Trace);
  ASSERT_NE(details.field("Counted from"), nullptr);
  EXPECT_NE(details.field("Counted from")->value.find("session time"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope
