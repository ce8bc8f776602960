// The CUDA injection (libgpuscope_cuda.so): the driver loads it from CUDA_INJECTION64_PATH at
// cuInit and calls InitializeInjection, which sets CUPTI's activity API up:
//   - CUPTI timestamps come from the session clock (the one every other source uses), read from
//     the time-stamp counter as the interposer reads it;
//   - CUPTI's library and this one are gpuscope's own code: their OS-runtime calls and threads are
//     not recorded (nsys leaves its own out too);
//   - buffer callbacks only hand buffers over; a worker thread converts them to ring records,
//     flushes completed buffers every 50 ms (so a crash loses little more than what was still
//     running) and forces a last flush at exit, and returns buffers to a capped
//     pool: when the pool is empty, CUPTI drops records and counts them, and so do we;
//   - device facts are read from the driver on the worker thread, once per device.
// Lock order: the queue lock is never held while calling CUPTI.
#include <cupti.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collector/cuda/capture_follow.h"
#include "collector/cuda/cupti_calls.h"
#include "collector/cuda/cupti_record_converter.h"
#include "collector/cuda/device_facts.h"
#include "collector/cuda/pm_sampler.h"
#include "collector/cuda/profiled_launch_times.h"
#include "collector/cuda/query_api_filter.h"
#include "collector/cuda/range_profiler.h"
#include "collector/inject/capture_gate.h"
#include "collector/inject/process_recorder.h"
#include "collector/inject/recorder_internal.h"
#include "collector/transport/ring_format.h"
#include "collector/transport/session_clock.h"

namespace gpuscope::cuda {
namespace {

using inject::ProcessRecorder;
using transport::RecordType;

constexpr size_t kBufferBytes = 4 << 20;
constexpr size_t kMaxBuffers = 32;  // 128 MiB at most in CUPTI's hands and ours
// Free buffers the worker keeps ready, their pages already touched: a fresh 4 MiB buffer costs whoever
// first writes it 1,024 page faults, and CUPTI writes on the program's thread (about 4 ms of system time
// a 50,000-launch loop on an H100 machine, docs/measurements/issue10_overhead.txt).
constexpr size_t kSpareBuffers = 3;
constexpr size_t kPageBytes = 4096;  // the smallest page: a write to each maps every page of a buffer
constexpr auto kFlushPeriod = std::chrono::milliseconds(50);
constexpr auto kGatePoll = std::chrono::milliseconds(5);
constexpr int64_t kRingWaitNs = 2'000'000'000;  // our own thread may wait for the daemon

// Converted records go into the worker thread's ring (it waits for room rather than dropping).
class RingSink : public RecordSink {
 public:
  explicit RingSink(ProcessRecorder& recorder) : recorder_(recorder) {}
  void write(RecordType type, uint16_t aux, uint32_t tid, const void* body, uint32_t bodyBytes,
             std::initializer_list<std::string_view> texts) override {
    recorder_.emit(type, aux, body, bodyBytes, texts, tid ? tid : recorder_.pid(), kRingWaitNs);
  }
  void define(RecordType type, const void* body, uint32_t bodyBytes, std::string_view text) override {
    recorder_.define(type, body, bodyBytes, text);
  }

 private:
  ProcessRecorder& recorder_;
};

struct CompletedBuffer {
  uint8_t* data;
  size_t validBytes;
  uint64_t dropped;
};

struct CudaTracer {
  ProcessRecorder* recorder = nullptr;
  uint32_t pid = 0;
  CUpti_SubscriberHandle subscriber = nullptr;
  std::mutex lock;  // guards the fields below
  std::condition_variable wake;
  std::deque<CompletedBuffer> completed;
  std::vector<uint8_t*> freeBuffers;
  size_t allocatedBuffers = 0;
  uint64_t refusedBuffers = 0;
  bool wantSpares = false;  // the free list ran below kSpareBuffers: the worker tops it up
  bool stopping = false;
  bool profiling = false;      // record --metrics: kernel replay
  bool zeroedBuffers = false;  // CUPTI was promised zeroed buffers: the worker zeroes each one it hands back
  std::thread worker;
  std::atomic<bool> running{false};
  std::atomic<uint64_t> converted{0};  // activity records the worker turned into ring records
};

CudaTracer* g_tracer = nullptr;

void diagnose(ProcessRecorder& recorder, transport::DiagnosticLevel level, const std::string& message) {
  transport::DiagnosticBody body{static_cast<uint32_t>(level), static_cast<uint32_t>(message.size())};
  recorder.emit(RecordType::Diagnostic, 0, &body, sizeof body, {message}, 0, kRingWaitNs);
}

// CUPTI stamps every API record with this, twice per call on the program's thread: the session
// clock read from the time-stamp counter (inject::sessionTickNs, the clock the OS-runtime and NVTX
// records already use) rather than clock_gettime. GPUSCOPE_CUPTI_CLOCK=session picks clock_gettime, and
// =cupti no callback at all (tests/gpu/overhead.sh compares the three).
uint64_t CUPTIAPI tickTimestamp() { return static_cast<uint64_t>(inject::sessionTickNs()); }
uint64_t CUPTIAPI sessionTimestamp() { return static_cast<uint64_t>(transport::sessionClockNs()); }

// How often the worker hands CUPTI's completed buffers over (GPUSCOPE_CUPTI_FLUSH_MS, default 50;
// 0: only when CUPTI hands a full buffer over, and at the end).
std::chrono::milliseconds flushPeriod() {
  static const std::chrono::milliseconds period = [] {
    const char* text = std::getenv("GPUSCOPE_CUPTI_FLUSH_MS");
    if (!text || !*text) return kFlushPeriod;
    return std::chrono::milliseconds(std::strtol(text, nullptr, 10));
  }();
  return period;
}

// Adds the executable segments of the loaded object that holds ADDRESS to gpuscope's own code.
void addOwnCodeOf(const void* address) {
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto at = reinterpret_cast<uintptr_t>(data);
        bool holds = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
          if (segment.p_type == PT_LOAD && at >= begin && at < begin + segment.p_memsz) holds = true;
        }
        if (!holds) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
          uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
          inject::addOwnCode(begin, begin + segment.p_memsz);
        }
        return 1;
      },
      const_cast<void*>(address));
}

// While CUPTI is set up on the program's thread, its OS-runtime calls are gpuscope's work.
class OwnWorkScope {
 public:
  OwnWorkScope() : was_(inject::setOwnWork(true)) {}
  ~OwnWorkScope() { inject::setOwnWork(was_); }
  OwnWorkScope(const OwnWorkScope&) = delete;
  OwnWorkScope& operator=(const OwnWorkScope&) = delete;

 private:
  bool was_;
};

// CUPTI calls the two buffer callbacks on the program's own threads too (a thread's buffer is full): their
// locks and the worker's wake-up are gpuscope's work there, not the program's OS-runtime calls. Waking the
// worker is a futex call of about 1.6 us, over the 1 us threshold, and std::condition_variable makes it from
// libstdc++, outside gpuscope's own code: unmarked, it was recorded as the program's pthread_cond_signal.
void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  OwnWorkScope ownWork;
  CudaTracer& tracer = *g_tracer;
  *buffer = nullptr;
  *size = 0;
  *maxRecords = 0;
  bool wake = false;
  {
    std::lock_guard<std::mutex> guard(tracer.lock);
    if (!tracer.freeBuffers.empty()) {
      *buffer = tracer.freeBuffers.back();
      tracer.freeBuffers.pop_back();
    } else if (tracer.allocatedBuffers < kMaxBuffers) {
      // CUPTI wants 8-byte aligned buffers (calloc's are 16), and zeroed ones (promiseZeroedBuffers).
      *buffer = static_cast<uint8_t*>(std::calloc(1, kBufferBytes));
      if (*buffer) ++tracer.allocatedBuffers;
    }
    if (!*buffer) {
      // Every buffer is in use: CUPTI drops what does not fit and counts it.
      ++tracer.refusedBuffers;
      return;
    }
    wake = tracer.freeBuffers.size() < kSpareBuffers && !tracer.wantSpares;
    if (wake) tracer.wantSpares = true;
  }
  *size = kBufferBytes;
  if (wake) tracer.wake.notify_one();
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t, size_t validBytes) {
  OwnWorkScope ownWork;
  size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(context, streamId, &dropped);
  CudaTracer& tracer = *g_tracer;
  {
    std::lock_guard<std::mutex> guard(tracer.lock);
    tracer.completed.push_back({buffer, validBytes, dropped});
  }
  tracer.wake.notify_one();
}

// Tops the free list up to kSpareBuffers on the worker's thread, touching every page of each new buffer
// here rather than where CUPTI first writes it.
void keepSpareBuffers(CudaTracer& tracer) {
  for (;;) {
    {
      std::lock_guard<std::mutex> guard(tracer.lock);
      tracer.wantSpares = false;
      if (tracer.freeBuffers.size() >= kSpareBuffers || tracer.allocatedBuffers >= kMaxBuffers) return;
      ++tracer.allocatedBuffers;  // this one is being made
    }
    auto* buffer = static_cast<uint8_t*>(std::calloc(1, kBufferBytes));
    // One write per page maps it (calloc's fresh pages are mapped by whoever first writes them).
    for (size_t at = 0; buffer && at < kBufferBytes; at += kPageBytes) static_cast<volatile uint8_t*>(buffer)[at] = 0;
    std::lock_guard<std::mutex> guard(tracer.lock);
    if (!buffer) {
      --tracer.allocatedBuffers;
      return;
    }
    tracer.freeBuffers.push_back(buffer);
  }
}

std::string apiName(bool driver, uint32_t callbackId) {
  const char* name = nullptr;
  CUpti_CallbackDomain domain = driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
  if (cuptiGetCallbackName(domain, callbackId, &name) != CUPTI_SUCCESS || !name) return {};
  return name;
}

// Device ordinals met in records, whose facts are written once.
class DeviceFactsWriter {
 public:
  void note(ProcessRecorder& recorder, uint32_t device) {
    if (device >= 64 || (written_ & (uint64_t{1} << device))) return;
    written_ |= uint64_t{1} << device;
    DeviceFacts facts;
    if (!readDeviceFacts(device, facts)) return;
    recorder.emit(RecordType::Gpu, 0, &facts.body, sizeof facts.body,
                  {facts.name, facts.uuid, facts.busLocation, facts.chipName}, 0, kRingWaitNs);
  }

 private:
  uint64_t written_ = 0;
};

uint32_t deviceOf(const CUpti_Activity& record) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return reinterpret_cast<const CUpti_ActivityKernel10&>(record).deviceId;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return reinterpret_cast<const CUpti_ActivityMemcpy6&>(record).deviceId;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return reinterpret_cast<const CUpti_ActivityMemset4&>(record).deviceId;
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return reinterpret_cast<const CUpti_ActivityContext3&>(record).deviceId;
    default:
      return UINT32_MAX;
  }
}

// GPU records CUPTI gave no timestamps cannot be drawn or counted in any report; say how many.
void reportUntimedRecords(ProcessRecorder& recorder, const ConverterCounts& counts) {
  if (counts.kernelsTimedByProfiler > 0)
    diagnose(recorder, transport::DiagnosticLevel::Info,
             std::to_string(counts.kernelsTimedByProfiler) +
                 " profiled kernels were replayed, so CUPTI could not time them: each is drawn with the duration the "
                 "profiler measured, ending when its launch call returned");
  if (counts.withoutTimestamps == 0) return;
  diagnose(recorder, transport::DiagnosticLevel::Warning,
           "CUPTI gave no timestamps for " + std::to_string(counts.withoutTimestamps) + " GPU activity records (" +
               std::to_string(counts.kernelsWithoutTimestamps) + " kernels); they are not in the trace");
}

void runWorker(CudaTracer& tracer) {
  inject::markToolThread();
  pthread_setname_np(pthread_self(), "gpuscope-cupti");
  RingSink sink(*tracer.recorder);
  CuptiRecordConverter converter(sink, apiName);
  // Reading device facts calls the driver from this thread: those calls are ours, not the program's.
  converter.ignoreThread(static_cast<uint32_t>(syscall(SYS_gettid)));
  if (rangeProfilingRequested())
    converter.setUntimedKernelTimes([](uint32_t correlationId) { return profiledLaunchTimes().take(correlationId); });
  DeviceFactsWriter devices;
  uint64_t reportedDrops = 0;
  uint64_t reportedRefusals = 0;
  auto lastFlush = std::chrono::steady_clock::now();
  keepSpareBuffers(tracer);
  for (;;) {
    bool stopping;
    bool starved;
    {
      std::unique_lock<std::mutex> guard(tracer.lock);
      // The gate is looked at every kGatePoll: `gpuscope start` reaches CUPTI within that (on an H200, a
      // 50 ms wait left the first 10 steps of a 4 ms loop without their kernels).
      auto wait = flushPeriod().count() > 0 ? std::min(flushPeriod(), kGatePoll) : kGatePoll;
      uint64_t generation = inject::gateGeneration();
      tracer.wake.wait_for(guard, wait, [&] {
        return !tracer.completed.empty() || tracer.wantSpares || tracer.stopping ||
               inject::gateGeneration() != generation;
      });
      stopping = tracer.stopping;
      // Under kernel replay CUPTI keeps many part-filled buffers and the pool runs dry (seen with PyTorch:
      // thousands of records dropped). Taking them back by force is safe there: a profiled kernel has
      // finished when its launch returns, and a record of one still running is counted, not kept.
      starved =
          tracer.profiling && tracer.allocatedBuffers >= kMaxBuffers && tracer.freeBuffers.size() < kMaxBuffers / 4;
    }
    auto now = std::chrono::steady_clock::now();
    // A close of the session gate: what CUPTI holds goes to the ring now, then the close is acknowledged.
    uint64_t closedGeneration = followGateChanges();
    if (stopping || starved || closedGeneration) {
      // The end: every buffer, even with records of work still running (those are counted, not kept).
      cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    } else if (flushPeriod().count() > 0 && now - lastFlush >= flushPeriod()) {
      // Buffers whose records are all complete, full or not: what finished reaches the rings within
      // 50 ms. (A forced flush here would hand over kernels still running, without their times.)
      cuptiActivityFlushAll(0);
      lastFlush = now;
    }
    std::deque<CompletedBuffer> work;
    uint64_t refusals;
    {
      std::lock_guard<std::mutex> guard(tracer.lock);
      work.swap(tracer.completed);
      refusals = tracer.refusedBuffers;
    }
    for (const CompletedBuffer& buffer : work) {
      CUpti_Activity* record = nullptr;
      uint64_t records = 0;
      while (buffer.validBytes &&
             cuptiActivityGetNextRecord(buffer.data, buffer.validBytes, &record) == CUPTI_SUCCESS) {
        devices.note(*tracer.recorder, deviceOf(*record));
        converter.convert(*record);
        ++records;
      }
      tracer.converted.fetch_add(records, std::memory_order_relaxed);
      converter.endBuffer();
      if (buffer.dropped) {
        reportedDrops += buffer.dropped;
        transport::DroppedBody body{buffer.dropped, static_cast<uint32_t>(transport::DropSource::Cupti), 0};
        sink.write(RecordType::Dropped, 0, 0, &body, sizeof body, {});
      }
      // The whole buffer, not only its valid bytes: CUPTI does not say it wrote nothing past them.
      if (tracer.zeroedBuffers) std::memset(buffer.data, 0, kBufferBytes);
      std::lock_guard<std::mutex> guard(tracer.lock);
      tracer.freeBuffers.push_back(buffer.data);
    }
    keepSpareBuffers(tracer);
    if (closedGeneration) tracer.recorder->acknowledgeGate(closedGeneration);
    if (refusals > reportedRefusals) {
      diagnose(*tracer.recorder, transport::DiagnosticLevel::Warning,
               "CUPTI filled all " + std::to_string(kMaxBuffers) +
                   " activity buffers faster than they were written; it dropped records (counted in the summary)");
      reportedRefusals = refusals;
    }
    if (stopping) {
      std::lock_guard<std::mutex> guard(tracer.lock);
      if (tracer.completed.empty()) break;
    }
  }
  converter.endBuffer(true);
  (void)reportedDrops;
  reportUntimedRecords(*tracer.recorder, converter.counts());
}

// At exit (before the driver tears down): everything CUPTI holds is flushed and written.
void stopTracing() {
  CudaTracer* tracer = g_tracer;
  if (!tracer || !tracer->running.exchange(false) || tracer->pid != static_cast<uint32_t>(getpid())) return;
  OwnWorkScope ownWork;  // the wait for the worker (pthread_join) is gpuscope's, not the program's
  stopPmSampling();      // its last samples first, while the driver is still up
  {
    std::lock_guard<std::mutex> guard(tracer->lock);
    tracer->stopping = true;
  }
  tracer->wake.notify_one();
  if (tracer->worker.joinable()) tracer->worker.join();
}

// The process ends without atexit (_exit in a fork child) or of a fatal signal: the last flush
// happens here, and the summary says how many records it saved.
void flushBeforeAbruptEnd(const char* how) {
  CudaTracer* tracer = g_tracer;
  if (!tracer || !tracer->running.load() || tracer->pid != static_cast<uint32_t>(getpid())) return;
  if (tracer->worker.get_id() == std::this_thread::get_id()) return;  // the worker itself failed
  uint64_t before = tracer->converted.load();
  stopTracing();
  uint64_t flushed = tracer->converted.load() - before;
  diagnose(*tracer->recorder, transport::DiagnosticLevel::Info,
           "the process ended by " + std::string(how) + ": " + std::to_string(flushed) +
               " CUDA activity records flushed from CUPTI first");
}

// SIGSEGV, SIGABRT, SIGBUS, SIGFPE: flush, then let the signal do what it did before us (the
// program's own handler, or the default: core dump). Not async-signal-safe, and so best effort:
// an alarm ends a flush that hangs (a lock held by the thread that crashed).
constexpr int kFatalSignals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE};
struct sigaction g_previousActions[sizeof kFatalSignals / sizeof kFatalSignals[0]];
constexpr unsigned kCrashFlushSeconds = 10;

void onFatalSignal(int signal, siginfo_t* info, void*) {
  static std::atomic<bool> flushing{false};
  if (!flushing.exchange(true)) {
    alarm(kCrashFlushSeconds);
    flushBeforeAbruptEnd(strsignal(signal));
    alarm(0);
  }
  for (size_t i = 0; i < std::size(kFatalSignals); ++i) {
    if (kFatalSignals[i] == signal) sigaction(signal, &g_previousActions[i], nullptr);
  }
  // A fault repeats when the handler returns and then meets the previous action; a signal that
  // was sent (kill, raise, abort) is sent again.
  if (info == nullptr || info->si_code <= 0 || signal == SIGABRT) raise(signal);
}

void flushOnFatalSignals() {
  struct sigaction action {};
  action.sa_sigaction = onFatalSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(kFatalSignals); ++i) {
    struct sigaction previous {};
    if (sigaction(kFatalSignals[i], nullptr, &previous) != 0) continue;
    // A program that ignores the signal, or set up its own handler before CUDA started, keeps it
    // first: ours runs and then passes the signal on.
    g_previousActions[i] = previous;
    if (previous.sa_handler == SIG_IGN) continue;
    sigaction(kFatalSignals[i], &action, nullptr);
  }
}

// A forked child has no worker thread and may not use CUDA: it records no CUDA.
void forgetTracingInChild() {
  if (g_tracer) g_tracer->running.store(false);
}

// The activity kinds recorded. Synchronization only on request (`record --cuda-sync`): the kind alone made
// every launch of tests/gpu/workloads/launch_loop.cu about 0.3 us (13 points of a 2.6 us launch) slower on an
// H100 (docs/measurements/issue10_overhead.txt). nsys enables it too, yet its exports keep only stream-wait-
// event rows (79 in tests/fixtures/classes/loader2, none for the 5,000 context syncs of classes/sync); without
// the flag gpuscope has none of those either.
// GPUSCOPE_GPU_METRICS_HOST=1: the process is record's GPU metrics host (gpu_metrics_host_main.cpp), which only
// samples the GPUs' counters; its own CUDA calls are not the program's and are not traced.
bool isGpuMetricsHost() {
  const char* host = std::getenv("GPUSCOPE_GPU_METRICS_HOST");
  return host && std::strcmp(host, "1") == 0;
}

// The kinds recorded only while the session gate is open (collector/cuda/capture_follow.h); contexts and
// streams are recorded always, they cost nothing per call.
std::vector<CUpti_ActivityKind> gatedActivityKinds(const inject::RecorderConfig& config) {
  if (isGpuMetricsHost()) return {};
  std::vector<CUpti_ActivityKind> kinds = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                           CUPTI_ACTIVITY_KIND_MEMCPY2,           CUPTI_ACTIVITY_KIND_MEMSET,
                                           CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_DRIVER};
  if (config.traceCudaSync) kinds.push_back(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  // `record --cuda-memory-usage`: every device allocation and free, as nsys's --cuda-memory-usage=true.
  const char* memoryUsage = std::getenv("GPUSCOPE_CUDA_MEMORY_USAGE");
  if (memoryUsage && std::strcmp(memoryUsage, "1") == 0) kinds.push_back(CUPTI_ACTIVITY_KIND_MEMORY2);
  return kinds;
}

std::vector<CUpti_ActivityKind> activityKinds(const inject::RecorderConfig& config) {
  if (isGpuMetricsHost()) return {};
  std::vector<CUpti_ActivityKind> kinds = gatedActivityKinds(config);
  kinds.push_back(CUPTI_ACTIVITY_KIND_CONTEXT);
  kinds.push_back(CUPTI_ACTIVITY_KIND_STREAM);
  return kinds;
}

// CUPTI zeroes each buffer it is given before filling it, on the thread that asked for it (the program's),
// unless told the buffers come zeroed (nsys tells it so): then the worker zeroes each one as it takes it
// back. That moves a 4 MiB memset off the program's thread for every buffer, about four a 50,000-launch loop
// of tests/gpu/workloads/launch_loop.cu. GPUSCOPE_CUPTI_ZEROED=0 (overhead.sh's gpuscope-cuda-cuptizero)
// leaves the zeroing to CUPTI, to price it.
bool promiseZeroedBuffers() {
  const char* wanted = std::getenv("GPUSCOPE_CUPTI_ZEROED");
  if (wanted && std::strcmp(wanted, "0") == 0) return false;
  uint8_t on = 1;
  size_t size = sizeof on;
  return cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &on) == CUPTI_SUCCESS;
}

// The subscriber's callback when no launch is profiled: only context creation is enabled, for --gpu-metrics.
void CUPTIAPI resourceCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (handleProfilerCallback(domain, id, data)) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && data)
    pmSamplingSawContext(static_cast<const CUpti_ResourceData*>(data)->context);
}

// The subscriber's callback under `record --metrics roofline`: the range profiler's, and capture ranges.
void CUPTIAPI profilingCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (handleProfilerCallback(domain, id, data)) return;
  rangeProfilerCallback(userdata, domain, id, data);
}

int startTracing(ProcessRecorder& recorder) {
  // CUPTI's library and this one: what they call is gpuscope's work, and so are the threads they start.
  addOwnCodeOf(reinterpret_cast<const void*>(&cuptiGetVersion));
  addOwnCodeOf(reinterpret_cast<const void*>(&startTracing));
  OwnWorkScope ownWork;
  uint32_t version = 0;
  if (cuptiGetVersion(&version) != CUPTI_SUCCESS || version < CUPTI_API_VERSION) {
    diagnose(recorder, transport::DiagnosticLevel::Error,
             "CUDA is not traced: the CUPTI library loaded (API version " + std::to_string(version) +
                 ") is older than the one gpuscope was built with (" + std::to_string(CUPTI_API_VERSION) + ")");
    recorder.setCudaState(static_cast<uint32_t>(transport::CudaState::CuptiFailed));
    return 0;
  }
  auto* tracer = new CudaTracer();
  tracer->recorder = &recorder;
  tracer->pid = static_cast<uint32_t>(getpid());
  g_tracer = tracer;
  // Only one CUPTI subscriber may exist per process: if another profiler got there first, say so.
  // `record --metrics roofline` needs the launch callbacks; CUPTI allows this one subscriber only.
  bool profile = rangeProfilingRequested();
  // GPUSCOPE_CUPTI_SUBSCRIBE=0 (tests/gpu/overhead.sh's gpuscope-cuda-nosub): no subscriber unless profiling,
  // to measure what the subscription costs; another profiler is then found by cuptiActivityEnable below.
  const char* subscribe = std::getenv("GPUSCOPE_CUPTI_SUBSCRIBE");
  CUptiResult subscribed =
      !profile && !pmSamplingRequested() && subscribe && std::strcmp(subscribe, "0") == 0
          ? CUPTI_SUCCESS
          : cuptiSubscribe(&tracer->subscriber, profile ? profilingCallback : resourceCallback, nullptr);
  if (subscribed != CUPTI_SUCCESS) {
    bool busy = subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    diagnose(recorder, busy ? transport::DiagnosticLevel::Warning : transport::DiagnosticLevel::Error,
             busy ? "CUDA is not traced: another profiler (Nsight Systems, Nsight Compute, a framework profiler) "
                    "already uses CUPTI in this process"
                  : "CUDA is not traced: CUPTI could not be set up (" + resultText(subscribed) + ")");
    recorder.setCudaState(
        static_cast<uint32_t>(busy ? transport::CudaState::CuptiBusy : transport::CudaState::CuptiFailed));
    return 0;
  }
  // GPUSCOPE_CUPTI_CLOCK=cupti (tests/gpu/overhead.sh's gpuscope-cuda-cupticlock) keeps CUPTI's own clock,
  // only to price the callback: its times are then not on the session clock, and the file's are wrong.
  const char* clock = std::getenv("GPUSCOPE_CUPTI_CLOCK");
  if (isGpuMetricsHost()) {
    // The metrics host places its PM samples by CUPTI's own clock (pm_sampler.cpp), and traces nothing else.
  } else if (!clock || std::strcmp(clock, "cupti") != 0) {
    cuptiActivityRegisterTimestampCallback(clock && std::strcmp(clock, "session") == 0 ? sessionTimestamp
                                                                                       : tickTimestamp);
  } else {
    diagnose(recorder, transport::DiagnosticLevel::Warning,
             "GPUSCOPE_CUPTI_CLOCK=cupti: CUDA times are on CUPTI's own clock, not the trace's; they do not line "
             "up with the OS-runtime and NVTX rows (an overhead-measurement setting only)");
  }
  cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  tracer->zeroedBuffers = promiseZeroedBuffers();
  CUptiResult registered = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
  if (registered != CUPTI_SUCCESS) {
    diagnose(recorder, transport::DiagnosticLevel::Error,
             "CUDA is not traced: CUPTI refused the activity buffers (" + resultText(registered) + ")");
    recorder.setCudaState(static_cast<uint32_t>(transport::CudaState::CuptiFailed));
    return 0;
  }
  for (CUpti_ActivityKind kind : activityKinds(recorder.config())) {
    CUptiResult enabled = cuptiActivityEnable(kind);
    if (enabled == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
      diagnose(recorder, transport::DiagnosticLevel::Warning,
               "CUDA is not traced: another profiler already uses CUPTI's activity API in this process");
      recorder.setCudaState(static_cast<uint32_t>(transport::CudaState::CuptiBusy));
      return 0;
    }
    if (enabled != CUPTI_SUCCESS) {
      diagnose(recorder, transport::DiagnosticLevel::Warning,
               "CUPTI activity kind " + std::to_string(static_cast<int>(kind)) + " is not recorded (" +
                   resultText(enabled) + ")");
    }
  }
  leaveOutQueryApiCalls();
  // Enabled above to find another profiler at once; from here on the gate decides.
  followCaptureGate(tracer->subscriber, gatedActivityKinds(recorder.config()));
  tracer->profiling = profile;
  if (profile) startRangeProfiling(recorder, tracer->subscriber);
  // `record` refuses --gpu-metrics with --metrics roofline: both need the GPU's performance monitors.
  if (!profile && pmSamplingRequested()) startPmSampling(recorder, tracer->subscriber);
  tracer->running.store(true);
  tracer->worker = std::thread(runWorker, std::ref(*tracer));
  inject::registerForkChildHandler(forgetTracingInChild);
  std::atexit(stopTracing);
  inject::registerAbruptExitHandler(flushBeforeAbruptEnd);
  flushOnFatalSignals();
  recorder.setCudaState(static_cast<uint32_t>(transport::CudaState::Tracing));
  return 1;
}

}  // namespace
}  // namespace gpuscope::cuda

// Called by the CUDA driver during cuInit when CUDA_INJECTION64_PATH names this library. It must
// have default visibility, or the driver silently skips it. It reports success even when CUPTI
// could not be set up (the reason went to the recorder), so the program's cuInit is never harmed.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  gpuscope::inject::ProcessRecorder* recorder = gpuscope::inject::ProcessRecorder::get();
  if (!recorder || !recorder->config().traceCuda) return 1;
  static std::once_flag once;
  std::call_once(once, [&] { gpuscope::cuda::startTracing(*recorder); });
  return 1;
}
