// The loader on the real nsys exports: tracks, hierarchy, correlation, nesting.
#include "core/model/trace_loader.h"

#include <gtest/gtest.h>

#include <future>
#include <optional>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"

namespace gpuscope {
namespace {

std::string fixture(const std::string& name) { return std::string(GPUSCOPE_FIXTURES) + "/nsys/" + name; }

int64_t countRows(const std::string& file, const std::string& sql) {
  auto db = Database::openReadOnly(file);
  auto stmt = db.prepare(sql);
  stmt.step();
  return stmt.int64(0);
}

TEST(TraceLoader, TransposeHasEveryEventOfTheFile) {
  auto file = fixture("transpose.sqlite");
  auto trace = loadTrace(file);
  const auto& c = trace->counts();
  EXPECT_EQ(c.kernels, 30u);
  EXPECT_EQ(static_cast<int64_t>(c.cudaApi), countRows(file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
  EXPECT_EQ(static_cast<int64_t>(c.osrt), countRows(file, "SELECT count(*) FROM OSRT_API"));
  EXPECT_EQ(c.memcpys, 3u);
  EXPECT_EQ(c.memsets, 1u);
  EXPECT_EQ(c.nvtx, 23u);
}

TEST(TraceLoader, TransposeProcessAndDevice) {
  auto trace = loadTrace(fixture("transpose.sqlite"));
  ASSERT_EQ(trace->processes().size(), 1u);
  const auto& process = trace->processes()[0];
  EXPECT_EQ(process.pid, 469u);
  EXPECT_EQ(process.name, "./transpose");
  ASSERT_FALSE(process.threads.empty());
  EXPECT_EQ(process.threads[0].tid, 469u);
  EXPECT_EQ(process.threads[0].name, "transpose");
  ASSERT_EQ(trace->devices().size(), 1u);
  EXPECT_EQ(trace->devices()[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(trace->devices()[0].smCount, 132);
  EXPECT_GE(trace->devices()[0].streams.size(), 2u);
}

TEST(TraceLoader, EveryKernelCorrelatesToItsLaunch) {
  auto trace = loadTrace(fixture("transpose.sqlite"));
  size_t kernels = 0;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const auto& track = trace->track(t);
    if (track.kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < track.lanes.size(); ++l) {
      for (uint32_t i = 0; i < track.lanes[l].size(); ++i) {
        EventRef kernel{t, l, i};
        auto call = trace->launchingCall(kernel);
        ASSERT_TRUE(call.has_value());
        EXPECT_EQ(trace->name(*call).rfind("cudaLaunchKernel", 0), 0u);
        EXPECT_LE(trace->start(*call), trace->start(kernel));
        auto work = trace->launchedWork(*call);
        ASSERT_EQ(work.size(), 1u);
        EXPECT_EQ(work[0], kernel);
        ++kernels;
      }
    }
  }
  EXPECT_EQ(kernels, 30u);
}

// Opening does not wait for the correlation indexes; the first question builds them, and threads asking at
// once get the same answers.
TEST(TraceLoader, TheCorrelationIndexesAreBuiltOnFirstUseOnce) {
  auto trace = loadTrace(fixture("loader2.sqlite"));
  const size_t loaded = trace->residentBytes();
  EventRef kernel{};
  for (uint32_t t = 0; t < trace->tracks().size(); ++t)
    if (trace->track(t).kind == TrackKind::GpuKernels && trace->track(t).eventCount() > 0) kernel = {t, 0, 0};
  std::vector<std::future<std::optional<EventRef>>> askers;
  for (int i = 0; i < 4; ++i)
    askers.push_back(std::async(std::launch::async, [&] { return trace->launchingCall(kernel); }));
  std::vector<std::optional<EventRef>> answers;
  for (auto& asker : askers) answers.push_back(asker.get());
  ASSERT_TRUE(answers[0].has_value());
  for (const auto& answer : answers) EXPECT_EQ(answer, answers[0]);
  const size_t indexed = trace->residentBytes();
  // Four bytes per correlated API call and GPU event, added only now.
  EXPECT_GE(indexed - loaded, 4 * (trace->counts().cudaApi / 2 + trace->counts().kernels));
  trace->buildCorrelationIndexes();
  EXPECT_EQ(trace->residentBytes(), indexed);
}

TEST(TraceLoader, LoaderMultiProcessKeepsEveryProcess) {
  auto file = fixture("loader2.sqlite");
  auto trace = loadTrace(file);
  auto pids = countRows(
      file, "SELECT count(DISTINCT " + global_id::sqlPid("globalTid") +
                ") FROM (SELECT globalTid FROM OSRT_API "
                "UNION SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION SELECT globalTid FROM NVTX_EVENTS)");
  EXPECT_EQ(static_cast<int64_t>(trace->processes().size()), pids);
  EXPECT_EQ(trace->processes()[0].name, "python3");
  EXPECT_EQ(static_cast<int64_t>(trace->counts().kernels),
            countRows(file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(static_cast<int64_t>(trace->counts().osrt), countRows(file, "SELECT count(*) FROM OSRT_API"));
  for (const auto& track : trace->tracks()) {
    for (const auto& lane : track.lanes) {
      for (size_t i = 1; i < lane.size(); ++i) {
        ASSERT_LE(lane.end(i - 1), lane.start[i]) << track.label;
      }
    }
  }
}

}  // namespace
}  // namespace gpuscope
