// CUPTI record conversion without a GPU: hand-built CUpti_Activity records go through the same
// converter the CUDA injection uses, a real ring file and the daemon, into a trace file whose rows
// are checked one by one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collector/cuda/cupti_record_converter.h"
#include "collector/daemon/trace_daemon.h"
#include "collector/transport/counter_text.h"
#include "collector/transport/ring_writer.h"
#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "core/roofline/kernel_metrics_table.h"
#include "core/write/trace_writer.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

using transport::RecordType;

constexpr int64_t kOrigin = 1'000'000'000;  // session clock at trace time 0
constexpr uint32_t kThread = 4242;

// Converted records go to ring 1, definitions to ring 0, as in the injection.
class FileSink : public cuda::RecordSink {
 public:
  explicit FileSink(transport::RingFileWriter& writer) : writer_(writer) { ring_ = writer_.claimRing(1); }
  void write(RecordType type, uint16_t aux, uint32_t tid, const void* body, uint32_t bodyBytes,
             std::initializer_list<std::string_view> texts) override {
    ASSERT_TRUE(writer_.write(ring_, type, aux, tid, body, bodyBytes, texts.begin(), texts.size()));
  }
  void define(RecordType type, const void* body, uint32_t bodyBytes, std::string_view text) override {
    ASSERT_TRUE(writer_.write(0, type, 0, 0, body, bodyBytes, &text, 1));
  }

 private:
  transport::RingFileWriter& writer_;
  uint32_t ring_ = 0;
};

std::string apiName(bool driver, uint32_t callbackId) {
  static const std::map<uint32_t, std::string> runtime = {{211, "cudaLaunchKernel_v7000"}, {31, "cudaMemcpy_v3020"}};
  static const std::map<uint32_t, std::string> driverNames = {{307, "cuLaunchKernel"}, {17, "cuModuleGetLoadingMode"}};
  const auto& table = driver ? driverNames : runtime;
  auto found = table.find(callbackId);
  return found == table.end() ? std::string() : found->second;
}

template <typename Record>
Record zeroed(CUpti_ActivityKind kind) {
  Record record;
  std::memset(&record, 0, sizeof record);
  record.kind = kind;
  return record;
}

CUpti_ActivityAPI apiCall(bool driver, uint32_t callbackId, uint32_t correlation, uint64_t start, uint64_t end) {
  auto record = zeroed<CUpti_ActivityAPI>(driver ? CUPTI_ACTIVITY_KIND_DRIVER : CUPTI_ACTIVITY_KIND_RUNTIME);
  record.cbid = callbackId;
  record.correlationId = correlation;
  record.start = start;
  record.end = end;
  record.processId = static_cast<uint32_t>(getpid());
  record.threadId = kThread;
  return record;
}

CUpti_ActivityKernel10 kernel(const char* name, uint32_t correlation, uint64_t start, uint64_t end) {
  auto record = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  record.name = name;
  record.correlationId = correlation;
  record.start = start;
  record.end = end;
  record.deviceId = 0;
  record.contextId = 1;
  record.streamId = 13;
  record.gridX = 256;
  record.gridY = 128;
  record.gridZ = 1;
  record.blockX = 32;
  record.blockY = 8;
  record.blockZ = 1;
  record.registersPerThread = 18;
  record.staticSharedMemory = 4224;
  record.dynamicSharedMemory = 512;
  record.localMemoryPerThread = 16;
  record.localMemoryTotal_v2 = 155713536;
  record.gridId = 2;
  record.sharedMemoryExecuted = 32768;
  record.cacheConfig.config.requested = 0;
  record.cacheConfig.config.executed = 1;
  record.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
  return record;
}

class CuptiReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<TempDir>();
    writer_.reset(transport::RingFileWriter::create(session_->path().c_str(), {4, 1 << 20},
                                                    static_cast<uint32_t>(getpid()), 1, 0, kOrigin));
    ASSERT_TRUE(writer_);
    sink_ = std::make_unique<FileSink>(*writer_);
    converter_ = std::make_unique<cuda::CuptiRecordConverter>(*sink_, apiName);
  }

  // Drains the ring file into a trace with the daemon, as `gpuscope record` does. INSPECT, if given, sees
  // the stopped daemon once the trace is finished (its counts, its kernel metrics).
  std::string writeTrace(const std::function<void(const TraceDaemon&)>& inspect = {}) {
    std::string path = session_->file("replay.sqlite");
    TraceWriter traceWriter(path);
    DaemonOptions options;
    options.sessionDir = session_->path();
    options.window.origin = kOrigin;
    TraceDaemon daemon(traceWriter, options);
    daemon.drainOnce();
    daemon.stop(std::chrono::milliseconds(0));
    EXPECT_EQ(daemon.counts().malformed, 0u);
    traceWriter.finish();
    if (inspect) inspect(daemon);
    return path;
  }

  void convert(const auto& record) { converter_->convert(reinterpret_cast<const CUpti_Activity&>(record)); }

  std::unique_ptr<TempDir> session_;
  std::unique_ptr<transport::RingFileWriter> writer_;
  std::unique_ptr<FileSink> sink_;
  std::unique_ptr<cuda::CuptiRecordConverter> converter_;
};

TEST_F(CuptiReplay, EveryActivityKindBecomesItsNsysRow) {
  auto context = zeroed<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  context.contextId = 1;
  context.deviceId = 0;
  context.nullStreamId = 7;
  convert(context);
  auto stream = zeroed<CUpti_ActivityStream>(CUPTI_ACTIVITY_KIND_STREAM);
  stream.contextId = 1;
  stream.streamId = 13;
  stream.priority = static_cast<uint32_t>(-5);
  stream.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT;
  convert(stream);

  // A driver call of its own, then a launch: runtime call, the driver call inside it, the kernel.
  convert(apiCall(true, 17, 99, kOrigin + 500, kOrigin + 900));
  convert(apiCall(true, 307, 100, kOrigin + 1100, kOrigin + 1800));
  convert(apiCall(false, 211, 100, kOrigin + 1000, kOrigin + 2000));
  const char* mangled = "_Z9transposeIfEvPT_PKS0_ii";
  convert(kernel(mangled, 100, kOrigin + 3000, kOrigin + 9000));
  // Two launches of an unmangled kernel share one name string.
  convert(kernel("sm80_xmma_gemm_f32f32", 101, kOrigin + 9500, kOrigin + 9900));
  convert(kernel("sm80_xmma_gemm_f32f32", 102, kOrigin + 10000, kOrigin + 10400));
  // A kernel CUPTI could not time is left out.
  convert(kernel(mangled, 103, 0, 0));

  auto copy = zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
  copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.bytes = 1 << 20;
  copy.start = kOrigin + 11000;
  copy.end = kOrigin + 15000;
  copy.contextId = 1;
  copy.streamId = 7;
  copy.correlationId = 104;
  copy.runtimeCorrelationId = 105;
  convert(copy);
  auto peer = zeroed<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  peer.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  peer.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  peer.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  peer.bytes = 4096;
  peer.start = kOrigin + 16000;
  peer.end = kOrigin + 17000;
  peer.contextId = 1;
  peer.streamId = 13;
  peer.srcDeviceId = 0;
  peer.dstDeviceId = 1;
  peer.srcContextId = 1;
  peer.dstContextId = 2;
  peer.correlationId = 106;
  convert(peer);
  auto set = zeroed<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  set.value = 0;
  set.bytes = 4096;
  set.start = kOrigin + 18000;
  set.end = kOrigin + 18500;
  set.contextId = 1;
  set.streamId = 13;
  set.correlationId = 107;
  set.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  convert(set);
  auto sync = zeroed<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  sync.start = kOrigin + 19000;
  sync.end = kOrigin + 25000;
  sync.contextId = 1;
  sync.streamId = 13;
  sync.correlationId = 108;
  sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  sync.cudaEventSyncId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  convert(sync);
  auto marker = zeroed<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  convert(marker);
  converter_->endBuffer(true);
  EXPECT_EQ(converter_->counts().nestedDriverCalls, 1u);
  EXPECT_EQ(converter_->counts().withoutTimestamps, 1u);
  EXPECT_EQ(converter_->counts().kernelsWithoutTimestamps, 1u);
  EXPECT_EQ(converter_->counts().unknownKinds, 1u);

  std::string trace = writeTrace();
  uint32_t pid = static_cast<uint32_t>(getpid());
  std::string globalPid = std::to_string(global_id::make(0, 1, pid, 0));
  std::string globalTid = std::to_string(global_id::make(0, 1, pid, kThread));

  auto kernels =
      query(trace,
            "SELECT k.start, k.end, k.deviceId, k.contextId, k.streamId, k.correlationId, k.globalPid, "
            "d.value, s.value, m.value, k.launchType, k.cacheConfig, k.registersPerThread, k.gridX, k.gridY, "
            "k.gridZ, k.blockX, k.blockY, k.blockZ, k.staticSharedMemory, k.dynamicSharedMemory, "
            "k.localMemoryPerThread, k.localMemoryTotal, k.gridId, k.sharedMemoryExecuted "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName "
            "JOIN StringIds s ON s.id = k.shortName JOIN StringIds m ON m.id = k.mangledName ORDER BY k.start");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0], (std::vector<std::string>{
                            "3000",      "9000",  "0",         "1",
                            "13",        "100",   globalPid,   "void transpose<float>(float*, float const*, int, int)",
                            "transpose", mangled, "1",         "1",
                            "18",        "256",   "128",       "1",
                            "32",        "8",     "1",         "4224",
                            "512",       "16",    "155713536", "2",
                            "32768"}));
  EXPECT_EQ(kernels[1][7], "sm80_xmma_gemm_f32f32");
  EXPECT_EQ(kernels[1][8], "sm80_xmma_gemm_f32f32");
  EXPECT_EQ(kernels[1][9], "sm80_xmma_gemm_f32f32");
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM StringIds WHERE value = 'sm80_xmma_gemm_f32f32'"), 1);

  // The driver call made inside cudaLaunchKernel is left out, as nsys does; the other one stays.
  auto calls = query(trace,
                     "SELECT r.start, r.end, r.eventClass, r.globalTid, r.correlationId, s.value, r.returnValue "
                     "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId ORDER BY r.start");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0], (std::vector<std::string>{"500", "900", "1", globalTid, "99", "cuModuleGetLoadingMode", "0"}));
  EXPECT_EQ(calls[1], (std::vector<std::string>{"1000", "2000", "0", globalTid, "100", "cudaLaunchKernel_v7000", "0"}));

  auto copies = query(trace,
                      "SELECT start, end, streamId, correlationId, bytes, copyKind, srcKind, dstKind, srcDeviceId, "
                      "dstDeviceId, dstContextId FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY start");
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0],
            (std::vector<std::string>{"11000", "15000", "7", "105", "1048576", "1", "0", "2", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(copies[1],
            (std::vector<std::string>{"16000", "17000", "13", "106", "4096", "10", "2", "2", "0", "1", "2"}));

  EXPECT_EQ(query(trace,
                  "SELECT start, end, streamId, correlationId, value, bytes, memKind FROM "
                  "CUPTI_ACTIVITY_KIND_MEMSET"),
            (std::vector<std::vector<std::string>>{{"18000", "18500", "13", "107", "0", "4096", "2"}}));
  EXPECT_EQ(query(trace,
                  "SELECT start, end, deviceId, contextId, streamId, correlationId, syncType, eventId FROM "
                  "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"),
            (std::vector<std::vector<std::string>>{{"19000", "25000", "0", "1", "13", "108", "3", "4294967295"}}));
  EXPECT_EQ(query(trace,
                  "SELECT streamId, hwId, vmId, processId, contextId, priority, flag FROM "
                  "TARGET_INFO_CUDA_STREAM ORDER BY streamId"),
            (std::vector<std::vector<std::string>>{{"7", "0", "1", std::to_string(pid), "1", "0", "3"},
                                                   {"13", "0", "1", std::to_string(pid), "1", "4294967291", "1"}}));

  // The file opens, and a kernel leads back to the call that launched it.
  auto loaded = loadTrace(trace);
  EXPECT_EQ(loaded->counts().kernels, 3u);
  EXPECT_EQ(loaded->counts().memcpys, 2u);
  bool linked = false;
  for (uint32_t t = 0; t < loaded->tracks().size(); ++t) {
    const Track& track = loaded->track(t);
    if (track.kind != TrackKind::GpuKernels) continue;
    for (uint32_t lane = 0; lane < track.lanes.size(); ++lane) {
      for (uint32_t i = 0; i < track.lanes[lane].size(); ++i) {
        EventRef ref{t, lane, i};
        if (loaded->lane(ref).correlation[i] != 100) continue;
        auto call = loaded->launchingCall(ref);
        linked = call && loaded->name(*call) == "cudaLaunchKernel_v7000";
      }
    }
  }
  EXPECT_TRUE(linked);
}

TEST_F(CuptiReplay, NestedDriverCallSeenBeforeItsRuntimeCallInALaterBuffer) {
  convert(apiCall(true, 307, 200, kOrigin + 100, kOrigin + 200));
  converter_->endBuffer();
  // A buffer of kernels in between says nothing about API calls.
  convert(kernel("k", 199, kOrigin + 150, kOrigin + 250));
  converter_->endBuffer();
  convert(apiCall(false, 211, 200, kOrigin + 50, kOrigin + 300));
  converter_->endBuffer();
  EXPECT_EQ(converter_->heldDriverCalls(), 0u);
  // A driver call of its own is held until one more buffer of API calls was read, then written.
  convert(apiCall(true, 17, 201, kOrigin + 400, kOrigin + 500));
  converter_->endBuffer();
  EXPECT_EQ(converter_->heldDriverCalls(), 1u);
  convert(apiCall(false, 211, 202, kOrigin + 600, kOrigin + 700));
  converter_->endBuffer();
  EXPECT_EQ(converter_->heldDriverCalls(), 0u);
  EXPECT_EQ(converter_->counts().nestedDriverCalls, 1u);
  std::string trace = writeTrace();
  auto names = query(trace,
                     "SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId ORDER BY "
                     "r.start");
  EXPECT_EQ(names, (std::vector<std::vector<std::string>>{
                       {"cudaLaunchKernel_v7000"}, {"cuModuleGetLoadingMode"}, {"cudaLaunchKernel_v7000"}}));
}

TEST_F(CuptiReplay, CallsOfGpuscopesOwnThreadAreLeftOut) {
  constexpr uint32_t kWorker = 777;
  converter_->ignoreThread(kWorker);
  CUpti_ActivityAPI own = apiCall(true, 17, 300, kOrigin + 100, kOrigin + 200);
  own.threadId = kWorker;
  convert(own);
  convert(apiCall(false, 211, 301, kOrigin + 300, kOrigin + 400));
  converter_->endBuffer(true);
  EXPECT_EQ(converter_->counts().toolThreadCalls, 1u);
  std::string trace = writeTrace();
  auto rows = query(trace, "SELECT correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME");
  EXPECT_EQ(rows, (std::vector<std::vector<std::string>>{{"301"}}));
}

TEST_F(CuptiReplay, ReplayedKernelsTakeTheProfilersTimesEvenWhenTheyArriveLater) {
  cuda::ProfiledLaunchTimes table;
  converter_->setUntimedKernelTimes([&](uint32_t correlation) { return table.take(correlation); });
  table.note(400, {static_cast<int64_t>(kOrigin + 1000), static_cast<int64_t>(kOrigin + 1600)});
  convert(kernel("k", 400, 0, 0));
  // The profiler notes the second launch only after CUPTI handed its record over.
  convert(kernel("k", 401, 0, 0));
  converter_->endBuffer();
  table.note(401, {static_cast<int64_t>(kOrigin + 2000), static_cast<int64_t>(kOrigin + 2700)});
  // A third never gets times: counted and left out at the end.
  convert(kernel("k", 402, 0, 0));
  converter_->endBuffer(true);
  EXPECT_EQ(converter_->counts().kernelsTimedByProfiler, 2u);
  EXPECT_EQ(converter_->counts().kernelsWithoutTimestamps, 1u);
  std::string trace = writeTrace();
  auto rows = query(trace, "SELECT correlationId, end - start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start");
  EXPECT_EQ(rows, (std::vector<std::vector<std::string>>{{"400", "600"}, {"401", "700"}}));
}

TEST_F(CuptiReplay, DeviceFactsFillEveryGpuColumnTheViewerUses) {
  transport::GpuBody body{};
  std::string name = "NVIDIA H100 80GB HBM3", uuid = "0ef79e88-2755-c950-5bf6-0d309cf81a3a", bus = "0000:00:06.0",
              chip = "GH100";
  body.deviceId = 0;
  body.nameLength = static_cast<uint32_t>(name.size());
  body.uuidLength = static_cast<uint32_t>(uuid.size());
  body.busLocationLength = static_cast<uint32_t>(bus.size());
  body.chipNameLength = static_cast<uint32_t>(chip.size());
  body.computeMajor = 9;
  body.computeMinor = 0;
  body.smCount = 132;
  body.threadsPerWarp = 32;
  body.maxWarpsPerSm = 64;
  body.maxBlocksPerSm = 32;
  body.maxThreadsPerBlock = 1024;
  body.maxRegistersPerBlock = 65536;
  body.maxRegistersPerSm = 65536;
  body.maxBlockDimX = 1024;
  body.maxBlockDimY = 1024;
  body.maxBlockDimZ = 64;
  body.asyncEngines = 3;
  body.isDiscrete = 1;
  body.maxIPC = -1;
  body.maxGridDimX = 2147483647;
  body.maxGridDimY = 65535;
  body.maxGridDimZ = 65535;
  body.maxShmemPerBlock = 49152;
  body.maxShmemPerBlockOptin = 232448;
  body.maxShmemPerSm = 233472;
  body.l2CacheSize = 52428800;
  body.totalMemory = 85017493504;
  body.memoryBandwidth = 3352320000000;
  body.clockRate = 1980000000;
  body.constantMemory = 65536;
  std::string_view texts[] = {name, uuid, bus, chip};
  ASSERT_TRUE(writer_->write(1, RecordType::Gpu, 0, 0, &body, sizeof body, texts, 4));
  ASSERT_TRUE(writer_->write(1, RecordType::Gpu, 0, 0, &body, sizeof body, texts, 4));  // written once
  std::string trace = writeTrace();
  auto rows = query(trace,
                    "SELECT vmId, id, name, busLocation, isDiscrete, l2CacheSize, totalMemory, memoryBandwidth, "
                    "clockRate, smCount, uuid, chipName, constantMemory, maxIPC, maxRegistersPerBlock, "
                    "maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, "
                    "asyncEngines, maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock, maxBlockDimX, maxBlockDimY, "
                    "maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, computeMajor, computeMinor, smMajor, "
                    "smMinor FROM TARGET_INFO_GPU");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{
                "1",  "0",  name,    bus,    "1",     "52428800", "85017493504", "3352320000000", "1980000000", "132",
                uuid, chip, "65536", "NULL", "65536", "49152",    "232448",      "233472",        "65536",      "32",
                "3",  "64", "32",    "1024", "1024",  "1024",     "64",          "2147483647",    "65535",      "65535",
                "9",  "0",  "9",     "0"}));
  auto loaded = loadTrace(trace);
  ASSERT_EQ(loaded->devices().size(), 1u);
  EXPECT_EQ(loaded->devices()[0].smCount, 132);
  EXPECT_EQ(loaded->devices()[0].maxShmemPerBlockOptin, 232448);
}

TEST_F(CuptiReplay, DiagnosticsAndCuptiStateReachTheRecorder) {
  std::string message = "CUDA is not traced: another profiler already uses CUPTI in this process";
  transport::DiagnosticBody body{static_cast<uint32_t>(transport::DiagnosticLevel::Warning),
                                 static_cast<uint32_t>(message.size())};
  std::string_view text = message;
  ASSERT_TRUE(writer_->write(1, RecordType::Diagnostic, 0, 0, &body, sizeof body, &text, 1));
  writer_->header().cudaState.store(static_cast<uint32_t>(transport::CudaState::CuptiBusy));
  transport::DroppedBody dropped{17, static_cast<uint32_t>(transport::DropSource::Cupti), 0};
  ASSERT_TRUE(writer_->write(1, RecordType::Dropped, 0, 0, &dropped, sizeof dropped));

  TraceWriter traceWriter(session_->file("diagnostics.sqlite"));
  DaemonOptions options;
  options.sessionDir = session_->path();
  TraceDaemon daemon(traceWriter, options);
  std::vector<Diagnostic> seen;
  daemon.setDiagnosticHandler([&](const Diagnostic& diagnostic) { seen.push_back(diagnostic); });
  daemon.drainOnce();
  daemon.stop(std::chrono::milliseconds(0));
  traceWriter.finish();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].message, message);
  EXPECT_EQ(seen[0].pid, static_cast<uint32_t>(getpid()));
  EXPECT_EQ(daemon.transportCounts().cuptiBusy, 1u);
  EXPECT_EQ(daemon.transportCounts().cuptiFailed, 0u);
  EXPECT_EQ(daemon.counts().cuptiDropped, 17u);
}

// A process whose CUPTI could not be set up (older than the one gpuscope was built with, say) is counted
// apart from one where another profiler held CUPTI: record's summary names each.
TEST_F(CuptiReplay, FailedCuptiIsCountedApartFromBusy) {
  writer_->header().cudaState.store(static_cast<uint32_t>(transport::CudaState::CuptiFailed));
  TransportCounts counts;
  writeTrace([&](const TraceDaemon& daemon) { counts = daemon.transportCounts(); });
  EXPECT_EQ(counts.cuptiFailed, 1u);
  EXPECT_EQ(counts.cuptiBusy, 0u);
  EXPECT_EQ(counts.cudaTraced, 0u);
}

TEST(KernelShortName, AsNsysShowsIt) {
  EXPECT_EQ(
      cuda::kernelShortName("void at::native::elementwise_kernel<128, 2, void at::native::gpu_kernel_impl_nocast<"
                            "at::native::CUDAFunctor_add<float>>(at::TensorIteratorBase&, T1 const&)::{lambda(int)"
                            "#1}>(int, T3)"),
      "elementwise_kernel");
  EXPECT_EQ(cuda::kernelShortName("void at::native::(anonymous namespace)::max_pool_forward_nchw<float, int>(T2, "
                                  "T1 const*, long, long)"),
            "max_pool_forward_nchw");
  EXPECT_EQ(cuda::kernelShortName("void scal_kernel<float, float, 1, true, 6, 5, 5, 3>(cublasTransposeParams<T2>, T1 "
                                  "const*, T1*, T2 const*)"),
            "scal_kernel");
  EXPECT_EQ(cuda::kernelShortName("sm80_xmma_fprop_implicit_gemm_f32f32_execute_kernel__5x_cudnn"),
            "sm80_xmma_fprop_implicit_gemm_f32f32_execute_kernel__5x_cudnn");
  EXPECT_EQ(cuda::kernelShortName("saxpy(int, float, float const*, float*)"), "saxpy");
  EXPECT_EQ(cuda::demangle("_Z5saxpyifPKfPf"), "saxpy(int, float, float const*, float*)");
  EXPECT_EQ(cuda::demangle("not_mangled"), "not_mangled");
}

}  // namespace
}  // namespace gpuscope::test

namespace gpuscope::test {
namespace {

// `record --metrics roofline`: a profiled launch's KernelMetrics record, next to the launch's activity
// records, becomes a GPUSCOPE_KERNEL_METRICS row that `gpuscope roofline` reads as it reads imported ones.
TEST_F(CuptiReplay, ProfiledLaunchBecomesAMetricsRowTheRooflineReads) {
  convert(apiCall(false, 211, 31, kOrigin + 1000, kOrigin + 1500));
  convert(kernel("_Z5saxpyPfPKffi", 31, kOrigin + 2000, kOrigin + 12000));
  converter_->endBuffer(true);
  std::string name = "saxpy(float*, const float*, float, int)";
  std::string counters = transport::encodeCounters({{"gpu__time_duration.sum", 10000},
                                                    {"dram__bytes.sum", 3 * 4096},
                                                    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1024},
                                                    {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
                                                    {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0}});
  transport::KernelMetricsBody body{31, 0, 5'000'000, static_cast<uint32_t>(name.size()),
                                    static_cast<uint32_t>(counters.size())};
  std::string_view texts[] = {name, counters};
  ASSERT_TRUE(writer_->write(1, RecordType::KernelMetrics, 0, kThread, &body, sizeof body, texts, 2));

  RecordCounts counts;
  std::vector<KernelMetrics> metrics;
  std::string path = writeTrace([&](const TraceDaemon& daemon) {
    counts = daemon.counts();
    metrics = daemon.kernelMetrics();
  });
  EXPECT_EQ(counts.profiledKernels, 1u);
  EXPECT_EQ(counts.profilingNs, 5'000'000);
  ASSERT_EQ(metrics.size(), 1u);
  EXPECT_EQ(metrics[0].kernelName, name);
  writeKernelMetrics(path, metrics);

  RunResult roofline = runGpuscope({"roofline", path, "--by", "instance", "--format", "csv"}, true);
  ASSERT_EQ(roofline.status, 0) << roofline.errorOutput;
  EXPECT_NE(roofline.errorOutput.find("saxpy"), std::string::npos) << roofline.errorOutput;
  EXPECT_NE(roofline.errorOutput.find(",2048,"), std::string::npos) << roofline.errorOutput;   // FP32 FLOPs
  EXPECT_NE(roofline.errorOutput.find(",12288,"), std::string::npos) << roofline.errorOutput;  // DRAM bytes
}

}  // namespace
}  // namespace gpuscope::test
