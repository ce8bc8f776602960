// The loader on the real nsys exports: tracks, hierarchy, correlation, nesting.
#include "core/model/trace_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <optional>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"

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

// nsys --python-sampling marks each sample with a nameless NVTX mark in a domain of its own (hostprep.nsys.sqlite:
// 11,023 of them on the main thread): nsys's bookkeeping, not the program's NVTX, so no timeline row; the program's
// own marks and ranges on that thread keep theirs.
TEST(TraceLoader, NsysPythonSamplingMarksMakeNoTrack) {
  const std::string file = (std::filesystem::path(::testing::TempDir()) / "python_sampling_marks.sqlite").string();
  std::filesystem::remove(file);
  {
    auto db = Database::create(file);
    for (auto table : {table::kStringIds, table::kNvtx}) db.exec(createTableSql(tableSpec(table)));
    const std::string tid = std::to_string(global_id::make(0, 0, 4242, 4242));
    std::string sql =
        "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES "
        "(10, NULL, 75, 'Python Periodic Sampling', TID, 1), (100, NULL, 34, NULL, TID, 1), "
        "(200, NULL, 34, NULL, TID, 1), (300, NULL, 34, NULL, TID, 1), "
        "(150, 250, 59, 'step 0', TID, NULL), (260, NULL, 34, 'checkpoint', TID, NULL)";
    for (size_t at; (at = sql.find("TID")) != std::string::npos;) sql.replace(at, 3, tid);
    db.exec(sql);
  }
  auto trace = loadTrace(file);
  size_t nvtxTracks = 0;
  for (const Track& track : trace->tracks()) {
    EXPECT_NE(track.nvtxDomain, 1) << track.label;
    if (track.kind != TrackKind::Nvtx) continue;
    ++nvtxTracks;
    EXPECT_EQ(track.eventCount(), 2u) << "the program's range and mark";
  }
  EXPECT_EQ(nvtxTracks, 1u);
  EXPECT_EQ(trace->counts().nvtx, 2u);
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

// Rows that change stream at every row, over more streams than the scan looks up one by one (it hashes past
// 32): each stream's kernels still land on that stream's track, in order.
TEST(TraceLoader, KernelsOfManyInterleavedStreamsEachKeepTheirStream) {
  constexpr int kStreams = 40;
  constexpr int kRounds = 5;
  auto path = (std::filesystem::path(::testing::TempDir()) / "interleaved_streams.sqlite").string();
  std::filesystem::remove(path);
  {
    auto db = Database::create(path);
    db.exec("BEGIN");
    db.exec(createTableSql(tableSpec(table::kStringIds)));
    db.exec(createTableSql(tableSpec(table::kKernel)));
    for (int stream = 0; stream < kStreams; ++stream)
      db.exec("INSERT INTO StringIds (id, value) VALUES (" + std::to_string(stream) + ", 'k" + std::to_string(stream) +
              "')");
    const int64_t pid = global_id::make(0, 0, 7, 7);
    for (int round = 0; round < kRounds; ++round) {
      for (int stream = 0; stream < kStreams; ++stream) {
        int64_t start = 1000 * round + stream;
        db.exec(
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
            "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
            "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
            std::to_string(start) + "," + std::to_string(start + 10) + ",0,1," + std::to_string(stream) + "," +
            std::to_string(round * kStreams + stream + 1) + "," + std::to_string(pid) + "," + std::to_string(stream) +
            "," + std::to_string(stream) + ",32,1,1,1,1,1,1,0,0,0,0,1)");
      }
    }
    db.exec("COMMIT");
  }
  auto trace = loadTrace(path);
  int kernelTracks = 0;
  for (const auto& track : trace->tracks()) {
    if (track.kind != TrackKind::GpuKernels) continue;
    ++kernelTracks;
    ASSERT_EQ(track.lanes.size(), 1u) << track.streamId;
    const Lane& lane = track.lanes[0];
    ASSERT_EQ(lane.size(), static_cast<size_t>(kRounds)) << track.streamId;
    for (size_t i = 0; i < lane.size(); ++i) {
      EXPECT_EQ(lane.start[i], static_cast<TimeNs>(1000 * i + track.streamId));
      EXPECT_EQ(trace->string(lane.name[i]), "k" + std::to_string(track.streamId));
      EXPECT_EQ(lane.correlation[i], i * kStreams + track.streamId + 1);
    }
  }
  EXPECT_EQ(kernelTracks, kStreams);
}

}  // namespace
}  // namespace gpuscope
