// TraceWriter: a small trace written, then read back with plain SQL and with loadTrace.
#include "core/write/trace_writer.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/trace_loader.h"

namespace gpuscope {
namespace {

namespace fs = std::filesystem;

// A file path in the temp folder, removed when the test ends.
struct TempPath {
  explicit TempPath(const std::string& name)
      : path((fs::temp_directory_path() / ("gpuscope_" + std::to_string(::getpid()) + "_" + name)).string()) {}
  ~TempPath() {
    std::error_code ec;
    fs::remove(path, ec);
  }
  std::string path;
};

// Every row of QUERY as "a|b|c", NULL written as NULL.
std::vector<std::string> rows(const Database& db, const std::string& query) {
  Statement stmt = db.prepare(query);
  std::vector<std::string> result;
  while (stmt.step()) {
    std::string row;
    for (int i = 0; i < stmt.columnCount(); ++i) {
      if (i) row += "|";
      row += stmt.isNull(i) ? "NULL" : std::string(stmt.text(i));
    }
    result.push_back(row);
  }
  return result;
}

using Rows = std::vector<std::string>;

constexpr uint32_t kPid = 100;
const int64_t kGlobalPid = global_id::make(0, 1, kPid, 0);
const int64_t kMainTid = global_id::make(0, 1, kPid, 100);
const int64_t kLoaderTid = global_id::make(0, 1, kPid, 101);

// One process with two threads on one GPU: a launch, a copy, a memset, a synchronization, NVTX, OS runtime.
void writeSmallTrace(const std::string& path) {
  WriterOptions options;
  options.rowsPerTransaction = 4;  // many commits on a few rows
  options.commandLine = "./transpose 8192";
  TraceWriter w(path, options);
  w.setSessionStart(1795318592513940587);
  w.addProcess({kGlobalPid, kPid, "transpose"});
  w.addThreadName({kMainTid, "transpose", 20});
  w.addThreadName({kLoaderTid, "loader", 20});
  // Every column, with the values of the H100 in the fixtures.
  GpuInfoRow gpu{.vmId = int64_t{1} << 48,
                 .id = 0,
                 .name = "NVIDIA H100 80GB HBM3",
                 .busLocation = "0000:00:06.0",
                 .uuid = "0ef79e88-2755-c950-5bf6-0d309cf81a3a",
                 .chipName = "GH100",
                 .ctxswDevPath = "",
                 .ctrlDevPath = "",
                 .isDiscrete = 1,
                 .l2CacheSize = 52428800,
                 .totalMemory = 85017493504,
                 .memoryBandwidth = 3352320000000,
                 .clockRate = 1980000000,
                 .smCount = 132,
                 .pwGpuId = 0,
                 .luid = 0,
                 .cuDevice = 0,
                 .revision = 161,
                 .nodeMask = 0,
                 .constantMemory = 65536,
                 .maxIPC = 0,
                 .maxRegistersPerBlock = 65536,
                 .maxShmemPerBlock = 49152,
                 .maxShmemPerBlockOptin = 232448,
                 .maxShmemPerSm = 233472,
                 .maxRegistersPerSm = 65536,
                 .threadsPerWarp = 32,
                 .asyncEngines = 3,
                 .maxWarpsPerSm = 64,
                 .maxBlocksPerSm = 32,
                 .maxThreadsPerBlock = 1024,
                 .maxBlockDimX = 1024,
                 .maxBlockDimY = 1024,
                 .maxBlockDimZ = 64,
                 .maxGridDimX = 2147483647,
                 .maxGridDimY = 65535,
                 .maxGridDimZ = 65535,
                 .computeMajor = 9,
                 .computeMinor = 0,
                 .smMajor = 9,
                 .smMinor = 0};
  w.addGpu(gpu);
  w.addCudaStream({7, 0, 1, kPid, 1, 0, 1});
  w.addCudaStream({13, 0, 1, kPid, 1, 0, 1});

  w.addNvtxDomainCreate({100, kMainTid, 5, "mylib"});
  w.addOsRuntime({400, 600, kLoaderTid, "ioctl", 0, 0, std::nullopt});
  w.addCudaApi({1000, 1500, CudaApiKind::Runtime, kMainTid, 10, "cudaLaunchKernel_v7000", 0, std::nullopt});
  w.addOsRuntime({1200, 1300, kMainTid, "pthread_mutex_lock", 0, 1, 7});
  w.addCudaApi({1600, 1700, CudaApiKind::Runtime, kMainTid, 11, "cudaMemcpyAsync_v3020", 0, std::nullopt});
  w.addCudaApi({1800, 1900, CudaApiKind::Runtime, kMainTid, 12, "cudaMemsetAsync_v3020", 0, std::nullopt});
  w.addCudaApi({2000, 9000, CudaApiKind::Driver, kMainTid, 13, "cuCtxSynchronize", 0, std::nullopt});

  KernelRow kernel;
  kernel.start = 2000;
  kernel.end = 5000;
  kernel.contextId = 1;
  kernel.streamId = 13;
  kernel.correlationId = 10;
  kernel.globalPid = kGlobalPid;
  kernel.demangledName = "transposeNaive(float *, const float *, int, int)";
  kernel.shortName = "transposeNaive";
  kernel.mangledName = "_Z14transposeNaivePfPKfii";
  kernel.launchType = 1;
  kernel.cacheConfig = 1;
  kernel.registersPerThread = 18;
  kernel.gridX = 256;
  kernel.gridY = 128;
  kernel.blockX = 32;
  kernel.blockY = 8;
  kernel.localMemoryTotal = 155713536;
  kernel.gridId = 2;
  kernel.sharedMemoryExecuted = 32768;
  kernel.sharedMemoryLimitConfig = 0;
  w.addKernel(kernel);
  MemcpyRow copy;
  copy.start = 5100;
  copy.end = 6100;
  copy.contextId = 1;
  copy.streamId = 7;
  copy.correlationId = 11;
  copy.globalPid = kGlobalPid;
  copy.bytes = 1 << 20;
  copy.copyKind = 1;
  copy.srcKind = 1;
  copy.dstKind = 2;
  w.addMemcpy(copy);
  w.addMemset({6200, 6300, 0, 1, 0, 13, 12, kGlobalPid, 0, 4096, 2, std::nullopt});
  w.addSync({2000, 9000, 0, 1, std::nullopt, 13, 13, kGlobalPid, 2});

  w.addNvtxPushPopRange({.start = 950, .end = 5000, .globalTid = kMainTid, .text = "forward"});
  w.addNvtxPushPopRange({.start = 1000,
                         .end = 1100,
                         .globalTid = kMainTid,
                         .text = "registered",
                         .registeredText = true,
                         .domainId = 5,
                         .color = 0xFF00FF00u,
                         .category = 3u});
  w.addNvtxPushPopRange({.start = 900, .end = 9500, .globalTid = kMainTid, .text = "step"});
  w.addNvtxStartEndRange(
      {.start = 300, .end = 8000, .globalTid = kLoaderTid, .endGlobalTid = kMainTid, .text = "load", .rangeId = 1});
  w.addNvtxMark({.start = 7000, .end = 123, .globalTid = kMainTid, .text = "checkpoint"});
  w.finish();
}

class TraceWriterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    file_ = new TempPath("trace_writer_test.sqlite");
    writeSmallTrace(file_->path);
  }
  static void TearDownTestSuite() {
    delete file_;
    file_ = nullptr;
  }
  static TempPath* file_;
};
TempPath* TraceWriterTest::file_ = nullptr;

TEST_F(TraceWriterTest, WritesTheEventTablesRowForRow) {
  Database db = Database::openReadOnly(file_->path);
  EXPECT_EQ(rows(db,
                 "SELECT r.start, r.end, eventClass, globalTid, correlationId, s.value, returnValue, callchainId "
                 "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId ORDER BY r.rowid"),
            (Rows{"1000|1500|0|" + std::to_string(kMainTid) + "|10|cudaLaunchKernel_v7000|0|NULL",
                  "1600|1700|0|" + std::to_string(kMainTid) + "|11|cudaMemcpyAsync_v3020|0|NULL",
                  "1800|1900|0|" + std::to_string(kMainTid) + "|12|cudaMemsetAsync_v3020|0|NULL",
                  "2000|9000|1|" + std::to_string(kMainTid) + "|13|cuCtxSynchronize|0|NULL"}));
  EXPECT_EQ(rows(db,
                 "SELECT k.start, k.end, deviceId, contextId, greenContextId, streamId, correlationId, "
                 "globalPid, d.value, s.value, m.value, launchType, cacheConfig, registersPerThread, gridX, gridY, "
                 "gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, "
                 "localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig "
                 "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName "
                 "JOIN StringIds s ON s.id = k.shortName JOIN StringIds m ON m.id = k.mangledName"),
            (Rows{"2000|5000|0|1|0|13|10|" + std::to_string(kGlobalPid) +
                  "|transposeNaive(float *, const float *, int, int)|transposeNaive|_Z14transposeNaivePfPKfii|1|1|18|"
                  "256|128|1|32|8|1|0|0|0|155713536|2|32768|NULL|0"}));
  EXPECT_EQ(rows(db, "SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
            (Rows{"5100|6100|0|1|0|7|11|" + std::to_string(kGlobalPid) +
                  "|1048576|1|NULL|1|2|NULL|NULL|NULL|NULL|NULL|NULL|NULL"}));
  EXPECT_EQ(rows(db, "SELECT * FROM CUPTI_ACTIVITY_KIND_MEMSET"),
            (Rows{"6200|6300|0|1|0|13|12|" + std::to_string(kGlobalPid) + "|0|4096|NULL|2"}));
  EXPECT_EQ(rows(db, "SELECT * FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"),
            (Rows{"2000|9000|0|1|NULL|13|13|" + std::to_string(kGlobalPid) + "|NULL|2|4294967295|4294967295"}));
  EXPECT_EQ(rows(db,
                 "SELECT o.start, o.end, eventClass, globalTid, s.value, returnValue, nestingLevel, callchainId "
                 "FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId ORDER BY o.rowid"),
            (Rows{"400|600|27|" + std::to_string(kLoaderTid) + "|ioctl|0|0|NULL",
                  "1200|1300|27|" + std::to_string(kMainTid) + "|pthread_mutex_lock|0|1|7"}));
}

TEST_F(TraceWriterTest, WritesNvtxInlineOrAsRegisteredStrings) {
  Database db = Database::openReadOnly(file_->path);
  std::string main = std::to_string(kMainTid);
  std::string loader = std::to_string(kLoaderTid);
  EXPECT_EQ(rows(db,
                 "SELECT n.start, n.end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, "
                 "s.value, domainId FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId ORDER BY n.rowid"),
            (Rows{"100|NULL|75|NULL|NULL|NULL|mylib|" + main + "|NULL|NULL|5",
                  "950|5000|59|NULL|NULL|NULL|forward|" + main + "|NULL|NULL|0",
                  "1000|1100|59|NULL|3|4278255360|NULL|" + main + "|NULL|registered|5",
                  "900|9500|59|NULL|NULL|NULL|step|" + main + "|NULL|NULL|0",
                  "300|8000|60|1|NULL|NULL|load|" + loader + "|" + main + "|NULL|0",
                  "7000|NULL|34|NULL|NULL|NULL|checkpoint|" + main + "|NULL|NULL|0"}));
}

TEST_F(TraceWriterTest, WritesProcessThreadAndTargetInfo) {
  Database db = Database::openReadOnly(file_->path);
  EXPECT_EQ(rows(db, "SELECT * FROM PROCESSES"), (Rows{std::to_string(kGlobalPid) + "|100|transpose"}));
  EXPECT_EQ(rows(db, "SELECT s.value, priority, globalTid FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId"),
            (Rows{"transpose|20|" + std::to_string(kMainTid), "loader|20|" + std::to_string(kLoaderTid)}));
  Database fixture = Database::openReadOnly(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  EXPECT_EQ(rows(db, "SELECT * FROM TARGET_INFO_GPU"), rows(fixture, "SELECT * FROM TARGET_INFO_GPU"));
  EXPECT_EQ(rows(db, "SELECT * FROM TARGET_INFO_CUDA_STREAM"), (Rows{"7|0|1|100|1|0|1", "13|0|1|100|1|0|1"}));
  EXPECT_EQ(rows(db, "SELECT utcEpochNs, utcTime FROM TARGET_INFO_SESSION_START_TIME"),
            (Rows{"1795318592513940587|2026-11-22T03:36:32"}));
}

TEST_F(TraceWriterTest, InternsEachStringOnce) {
  Database db = Database::openReadOnly(file_->path);
  EXPECT_EQ(rows(db, "SELECT count(*), count(DISTINCT value), min(id), max(id) FROM StringIds"), (Rows{"12|12|0|11"}));
  TempPath other("trace_writer_intern.sqlite");
  TraceWriter w(other.path);
  EXPECT_EQ(w.intern("a"), 0);
  EXPECT_EQ(w.intern("b"), 1);
  EXPECT_EQ(w.intern("a"), 0);
  EXPECT_EQ(w.intern(""), 2);
}

TEST_F(TraceWriterTest, WritesEnumsAndMetadata) {
  Database db = Database::openReadOnly(file_->path);
  EXPECT_EQ(rows(db, "SELECT * FROM ENUM_NSYS_EVENT_CLASS"),
            (Rows{"0|TRACE_PROCESS_EVENT_CUDA_RUNTIME|CUDA runtime", "1|TRACE_PROCESS_EVENT_CUDA_DRIVER|CUDA driver",
                  "27|TRACE_PROCESS_EVENT_OS_RUNTIME|OSRT runtime"}));
  EXPECT_EQ(rows(db, "SELECT id FROM ENUM_NSYS_EVENT_TYPE"), (Rows{"34", "59", "60", "75", "76"}));
  EXPECT_EQ(rows(db, "SELECT * FROM ENUM_CUDA_MEMCPY_OPER WHERE id IN (1, 2, 8)"),
            (Rows{"1|CUDA_MEMCPY_KIND_HTOD|Host-to-Device", "2|CUDA_MEMCPY_KIND_DTOH|Device-to-Host",
                  "8|CUDA_MEMCPY_KIND_DTOD|Device-to-Device"}));
  EXPECT_EQ(rows(db, "SELECT count(*) FROM ENUM_CUDA_MEMCPY_OPER"), (Rows{"14"}));
  EXPECT_EQ(rows(db, "SELECT * FROM ENUM_CUDA_MEM_KIND WHERE id IN (0, 1, 2)"),
            (Rows{"0|CUDA_MEMOPR_MEMORY_KIND_PAGEABLE|Pageable", "1|CUDA_MEMOPR_MEMORY_KIND_PINNED|Pinned",
                  "2|CUDA_MEMOPR_MEMORY_KIND_DEVICE|Device"}));
  EXPECT_EQ(rows(db, "SELECT * FROM GPUSCOPE_META"),
            (Rows{"format_version|1", "recorder_version|" + WriterOptions{}.recorderVersion,
                  "command_line|./transpose 8192"}));
  EXPECT_EQ(rows(db,
                 "SELECT value FROM META_DATA_EXPORT WHERE name IN ('EXPORT_PRODUCT_NAME', "
                 "'EXPORT_SCHEMA_VERSION_MAJOR', 'EXPORT_PARAM_OUTPUT_FILE') ORDER BY rowid"),
            (Rows{"gpuscope", "3", fs::path(file_->path).filename().string()}));
}

TEST_F(TraceWriterTest, CreatesIndexesOnStartCorrelationAndThread) {
  Database db = Database::openReadOnly(file_->path);
  Rows indexes = rows(db,
                      "SELECT tbl_name || '.' || (SELECT name FROM pragma_index_info(m.name)) FROM sqlite_schema m "
                      "WHERE type = 'index' ORDER BY 1");
  for (const char* expected : {"CUPTI_ACTIVITY_KIND_KERNEL.start", "CUPTI_ACTIVITY_KIND_KERNEL.correlationId",
                               "CUPTI_ACTIVITY_KIND_RUNTIME.start", "CUPTI_ACTIVITY_KIND_RUNTIME.correlationId",
                               "CUPTI_ACTIVITY_KIND_RUNTIME.globalTid", "CUPTI_ACTIVITY_KIND_MEMCPY.correlationId",
                               "CUPTI_ACTIVITY_KIND_MEMSET.correlationId", "NVTX_EVENTS.start", "NVTX_EVENTS.globalTid",
                               "OSRT_API.start", "OSRT_API.globalTid"}) {
    EXPECT_NE(std::find(indexes.begin(), indexes.end(), expected), indexes.end()) << expected;
  }
  // The file is a plain rollback-journal database that readers can open read-only.
  EXPECT_EQ(rows(db, "PRAGMA integrity_check"), (Rows{"ok"}));
}

TEST_F(TraceWriterTest, LoadsThroughLoadTrace) {
  auto trace = loadTrace(file_->path);
  const EventCounts& counts = trace->counts();
  EXPECT_EQ(counts.kernels, 1u);
  EXPECT_EQ(counts.memcpys, 1u);
  EXPECT_EQ(counts.memsets, 1u);
  EXPECT_EQ(counts.cudaApi, 4u);
  EXPECT_EQ(counts.nvtx, 5u);  // the domain creation is not an event
  EXPECT_EQ(counts.osrt, 2u);
  ASSERT_EQ(trace->processes().size(), 1u);
  EXPECT_EQ(trace->processes()[0].pid, kPid);
  EXPECT_EQ(trace->processes()[0].name, "transpose");
  ASSERT_NE(trace->device(0), nullptr);
  EXPECT_EQ(trace->device(0)->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(trace->device(0)->smCount, 132);
  EXPECT_EQ(trace->device(0)->maxShmemPerSm, 233472);

  bool sawKernel = false;
  size_t nvtxLanesOnMain = 0;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const Track& track = trace->track(t);
    if (track.kind == TrackKind::Nvtx && track.globalTid == kMainTid && track.nvtxDomain == 0)
      nvtxLanesOnMain = track.lanes.size();
    if (track.kind != TrackKind::GpuKernels) continue;
    ASSERT_EQ(track.eventCount(), 1u);
    EventRef kernel{t, 0, 0};
    EXPECT_EQ(trace->name(kernel), "transposeNaive");
    EXPECT_EQ(trace->start(kernel), 2000);
    EXPECT_EQ(trace->end(kernel), 5000);
    auto launch = trace->launchingCall(kernel);
    ASSERT_TRUE(launch.has_value());
    EXPECT_EQ(trace->start(*launch), 1000);
    EXPECT_EQ(trace->name(*launch).rfind("cudaLaunchKernel", 0), 0u) << trace->name(*launch);
    sawKernel = true;
  }
  EXPECT_TRUE(sawKernel);
  EXPECT_EQ(nvtxLanesOnMain, 2u);  // "step" holds "forward" and the mark
}

TEST(TraceWriter, UnwritablePathIsATraceError) {
  EXPECT_THROW(TraceWriter("/nonexistent-dir/for/sure/trace.sqlite"), TraceError);
}

TEST(TraceWriter, UnfinishedWriterLeavesAReadableFile) {
  TempPath file("trace_writer_unfinished.sqlite");
  {
    TraceWriter w(file.path);
    w.addCudaApi({10, 20, CudaApiKind::Runtime, kMainTid, 1, "cudaFree_v3020", 0, std::nullopt});
  }
  Database db = Database::openReadOnly(file.path);
  EXPECT_EQ(rows(db, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME"), (Rows{"10|20"}));
}

// Kernel rows go through the GPU lane (a side file written on its own thread) in multi-row
// statements; finish() copies them in and removes the side file. 1000 rows are several full
// statements plus a partial one, with text (NVTX) and NULLs (mangledName) among them.
TEST(TraceWriter, ManyRowsThroughTheLaneAllArrive) {
  TempPath file("trace_writer_lane.sqlite");
  {
    WriterOptions options;
    options.rowsPerTransaction = 300;
    TraceWriter w(file.path, options);
    for (int i = 0; i < 1000; ++i) {
      KernelRow kernel;
      kernel.start = i * 10;
      kernel.end = i * 10 + 5;
      kernel.correlationId = static_cast<uint32_t>(i);
      kernel.demangledName = kernel.shortName = i % 2 ? "odd" : "even";
      w.addKernel(kernel);
      NvtxRow range;
      range.start = i * 10;
      range.end = i * 10 + 1;
      range.globalTid = kMainTid;
      std::string text = "range " + std::to_string(i);
      range.text = text;
      w.addNvtxPushPopRange(range);
    }
    w.finish();
  }
  EXPECT_FALSE(fs::exists(file.path + ".gpu-lane"));
  Database db = Database::openReadOnly(file.path);
  EXPECT_EQ(rows(db, "SELECT count(*), sum(correlationId), count(mangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
            (Rows{"1000|499500|0"}));
  EXPECT_EQ(rows(db,
                 "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                 "ON s.id = k.shortName GROUP BY s.value ORDER BY s.value"),
            (Rows{"even|500", "odd|500"}));
  EXPECT_EQ(rows(db, "SELECT count(*), count(DISTINCT text) FROM NVTX_EVENTS"), (Rows{"1000|1000"}));
  EXPECT_EQ(rows(db, "SELECT text FROM NVTX_EVENTS WHERE start = 9990"), (Rows{"range 999"}));
}

TEST(TraceWriter, UnfinishedWriterKeepsItsLaneRows) {
  TempPath file("trace_writer_unfinished_lane.sqlite");
  {
    TraceWriter w(file.path);
    KernelRow kernel;
    kernel.start = 10;
    kernel.end = 20;
    kernel.demangledName = kernel.shortName = "k";
    w.addKernel(kernel);
  }
  EXPECT_FALSE(fs::exists(file.path + ".gpu-lane"));
  Database db = Database::openReadOnly(file.path);
  EXPECT_EQ(rows(db, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL"), (Rows{"10|20"}));
}

// A writer killed (SIGKILL: no destructor, no finish) after commit() leaves a file that holds the
// committed rows, the GPU lane's too, and resume() makes a finished trace of it.
TEST(TraceWriter, AKilledWritersCommittedRowsAreResumed) {
  TempPath file("trace_writer_killed.sqlite");
  TempPath lane("trace_writer_killed.sqlite.gpu-lane");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    WriterOptions options;
    options.rowsPerTransaction = 1'000'000;  // only commit() commits
    TraceWriter w(file.path, options);
    auto addRows = [&w](int from, int to) {
      for (int i = from; i < to; ++i) {
        KernelRow kernel;
        kernel.start = i * 10;
        kernel.end = i * 10 + 5;
        kernel.demangledName = kernel.shortName = i < 100 ? "committed" : "lost";
        w.addKernel(kernel);
        w.addOsRuntime({i * 10, i * 10 + 2, kMainTid, i < 100 ? "read" : "write", 0, 0, std::nullopt});
      }
    };
    addRows(0, 100);
    w.commit();
    addRows(100, 150);
    kill(getpid(), SIGKILL);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_TRUE(fs::exists(lane.path));

  std::unique_ptr<TraceWriter> resumed = TraceWriter::resume(file.path);
  resumed->addMeta("recovered", "yes");
  resumed->finish();
  EXPECT_FALSE(fs::exists(lane.path));
  Database db = Database::openReadOnly(file.path);
  EXPECT_EQ(rows(db, "SELECT count(*), max(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), (Rows{"100|990"}));
  EXPECT_EQ(rows(db, "SELECT s.value, count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId GROUP BY 1"),
            (Rows{"read|100"}));
  EXPECT_EQ(rows(db, "SELECT value FROM GPUSCOPE_META WHERE name = 'recovered'"), (Rows{"yes"}));
  EXPECT_FALSE(rows(db, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_NAME'").empty());
  EXPECT_NO_THROW(loadTrace(file.path));
  // A finished trace, and a file that is no trace, are refused in one sentence.
  EXPECT_THROW(TraceWriter::resume(file.path), TraceError);
  TempPath other("trace_writer_not_a_trace.sqlite");
  { std::ofstream(other.path) << "not a database"; }
  EXPECT_THROW(TraceWriter::resume(other.path), TraceError);
}

}  // namespace
}  // namespace gpuscope
