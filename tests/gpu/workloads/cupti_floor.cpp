// The cost of CUPTI's activity API alone, for the overhead check (tests/gpu/overhead.sh): a CUDA
// injection library that turns on the activity kinds gpuscope records, leaves out the same query getters,
// and hands every completed buffer straight back unread. What a program loses under it is what any
// CUPTI-activity-based tracer must cost it; gpuscope's own share is what it costs beyond that.
//
// Variants, to find which part of CUPTI a program pays for (tests/gpu/issue10_noise_call.sh):
//   CUPTI_FLOOR_KINDS   the activity kinds, a comma list of kernel, memcpy, memset, sync, runtime, driver,
//                       context, stream (default: all but sync, the kinds `gpuscope record` enables; sync is
//                       `record --cuda-sync`'s).
//   CUPTI_FLOOR_ZEROED=1  tell CUPTI its buffers come zeroed (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER),
//                       and zero each one as it comes back, as gpuscope and nsys do.
//   CUPTI_FLOOR_SYSTEM_TID=1  ask for system thread ids in API records (cuptiSetThreadIdType), as gpuscope
//                       and nsys do.
//   CUPTI_FLOOR_RAW=1   call libcupti's unpublished cuptiActivityEnableRawTimestamps(1), as nsys 2025.3.1 does
//                       (tests/gpu/cupti_spy.sh): GPU times are then left unconverted to the CPU's clock.
//   CUPTI_FLOOR_TSCB=1  register a timestamp callback that reads the time-stamp counter, as gpuscope and nsys do;
//                       with CUPTI_FLOOR_PROBE=1 too, it counts its calls and prints "timestamp_calls N" at exit
//                       (how many clock readings CUPTI takes per launch).
//   CUPTI_FLOOR_PROBE=1 print, for the first completed buffer, the first API and kernel records' times beside
//                       cuptiGetTimestamp, CLOCK_MONOTONIC_RAW and CLOCK_REALTIME, to
//                       tell which clock each variant's records are on.
//   CUPTI_FLOOR_NSYS=1  set CUPTI up as nsys 2025.3.1 does (docs/measurements/issue10_overhead.txt, fourth
//                       session, section 2): its activity kinds, synchronization included, with kernels, names
//                       and streams through cuptiActivityEnableAndDump; zeroed per-thread buffers, system thread
//                       ids, a TSC timestamp callback, cuptiActivityFlushPeriod(0) and raw timestamps. Replaces
//                       CUPTI_FLOOR_KINDS and the other switches. With CUPTI_FLOOR_NSYS_NOSYNC=1 too, all that
//                       but the synchronization kind (which gpuscope records only with --cuda-sync).
//   CUPTI_FLOOR_NSYS_WITHOUT  with CUPTI_FLOOR_NSYS=1: a comma list of parts of that set-up to leave out
//                       (zeroed, perthread, systid, tscb, raw, sync, extrakinds, dump, flush0; see setUpAsNsys),
//                       to find which of them NSYS_CONTROL_CUPTI_FEATURES=1 acts with (tests/gpu/nsys_parts_call.sh).
//   CUPTI_FLOOR_PINNED=1  keep the GPU's kernel, memcpy and memset timestamps in pinned host memory
//                       (CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED) instead of device buffers that
//                       CUPTI copies back; CUPTI_FLOOR_DEVICE_BUFFER_MB=N makes those buffers N MB (default
//                       3.2, about 100,000 records). Neither is nsys's: priced because CUPTI's header says
//                       buffer handling can stall the launching thread. Apply to every variant.
//   CUPTI_FLOOR_DRIVER_LAUNCH_OFF=1  no driver-API records for cuLaunchKernel and its _ptsz and Ex forms
//                       (cuptiActivityEnableDriverApi(id, 0)). Written to price a driver launch record inside
//                       each cudaLaunchKernel; CUPTI_FLOOR_COUNT showed there is none (the one driver record per
//                       launch is cuKernelGetName's, which nsys keeps too), so this leaves CUPTI set up exactly
//                       as the floor: a null control, to see how far one call's noise moves identical set-ups.
//   CUPTI_FLOOR_COUNT=1 count the records of every completed buffer by kind, and the driver-API ones by
//                       function, and print "records KIND N" and, for every function with more than 100
//                       (the per-launch ones), "driver_records CBID N" at exit; ids beyond the tables are
//                       counted as "records_out_of_range N".
//   CUPTI_FLOOR_CALLBACKS  runtime, driver or both: also subscribe to those API callbacks, and in each take
//                       a time-stamp-counter reading and store it with the call's id in a thread's buffer (the
//                       least a callback-based API tracer must do), skipping driver calls made inside a
//                       runtime call.
//
// Build (from the repository root): g++ -std=c++17 -O2 -fPIC -shared -I. -I$CUDA/include
//   tests/gpu/workloads/cupti_floor.cpp collector/cuda/query_api_filter.cpp -L<dir of libcupti.so> -lcupti
//   -o libcupti_floor.so, then run the program with CUDA_INJECTION64_PATH=libcupti_floor.so.
#include <cupti.h>
#include <dlfcn.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "collector/cuda/query_api_filter.h"

namespace {

constexpr size_t kBufferBytes = 4 << 20;
std::mutex g_lock;
std::vector<uint8_t*> g_free;
bool g_zeroed = false;

bool envIsOne(const char* name) {
  const char* value = std::getenv(name);
  return value && std::strcmp(value, "1") == 0;
}

void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  std::lock_guard<std::mutex> guard(g_lock);
  if (g_free.empty()) {
    g_free.push_back(static_cast<uint8_t*>(std::calloc(1, kBufferBytes)));
  }
  *buffer = g_free.back();
  g_free.pop_back();
  *size = kBufferBytes;
  *maxRecords = 0;
}

uint64_t clockNs(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return uint64_t(now.tv_sec) * 1000000000u + uint64_t(now.tv_nsec);
}

bool g_probe = false;

// Prints the first runtime-API and kernel records of the first buffer beside the clocks it may be on.
void probeRecords(uint8_t* buffer, size_t validBytes) {
  g_probe = false;
  uint64_t cupti = 0;
  cuptiGetTimestamp(&cupti);
  std::printf("probe now: cupti %llu monotonic_raw %llu realtime %llu\n", (unsigned long long)cupti,
              (unsigned long long)clockNs(CLOCK_MONOTONIC_RAW), (unsigned long long)clockNs(CLOCK_REALTIME));
  CUpti_Activity* record = nullptr;
  int apis = 0, kernels = 0;
  while (cuptiActivityGetNextRecord(buffer, validBytes, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME && apis++ < 3) {
      const auto& api = *reinterpret_cast<const CUpti_ActivityAPI*>(record);
      std::printf("probe api %u start %llu end %llu\n", api.correlationId, (unsigned long long)api.start,
                  (unsigned long long)api.end);
    } else if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && kernels++ < 3) {
      const auto& kernel = *reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      std::printf("probe kernel %u start %llu end %llu\n", kernel.correlationId, (unsigned long long)kernel.start,
                  (unsigned long long)kernel.end);
    }
  }
  std::fflush(stdout);
}

std::atomic<uint64_t> g_completedOnMain{0}, g_completedElsewhere{0};

// CUPTI_FLOOR_COUNT: records per activity kind, and driver-API records per function.
bool g_count = false;
std::mutex g_countLock;
std::vector<uint64_t> g_kindCounts(128), g_driverCounts(1024);
uint64_t g_outOfRange = 0;

void countIn(std::vector<uint64_t>& counts, size_t id) {
  if (id < counts.size()) {
    ++counts[id];
  } else {
    ++g_outOfRange;
  }
}

void countRecords(uint8_t* buffer, size_t validBytes) {
  std::lock_guard<std::mutex> guard(g_countLock);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validBytes, &record) == CUPTI_SUCCESS) {
    countIn(g_kindCounts, size_t(record->kind));
    if (record->kind == CUPTI_ACTIVITY_KIND_DRIVER)
      countIn(g_driverCounts, reinterpret_cast<const CUpti_ActivityAPI*>(record)->cbid);
  }
}

void printCounts() {
  for (size_t kind = 0; kind < g_kindCounts.size(); ++kind)
    if (g_kindCounts[kind]) std::printf("records %zu %llu\n", kind, (unsigned long long)g_kindCounts[kind]);
  for (size_t cbid = 0; cbid < g_driverCounts.size(); ++cbid)
    if (g_driverCounts[cbid] > 100)
      std::printf("driver_records %zu %llu\n", cbid, (unsigned long long)g_driverCounts[cbid]);
  if (g_outOfRange) std::printf("records_out_of_range %llu\n", (unsigned long long)g_outOfRange);
}

void leaveOutDriverLaunches() {
  if (!envIsOne("CUPTI_FLOOR_DRIVER_LAUNCH_OFF")) return;
  for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
    cuptiActivityEnableDriverApi(id, 0);
}

void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validBytes) {
  (gettid() == getpid() ? g_completedOnMain : g_completedElsewhere).fetch_add(1, std::memory_order_relaxed);
  if (g_probe) probeRecords(buffer, validBytes);
  if (g_count) countRecords(buffer, validBytes);
  if (g_zeroed) std::memset(buffer, 0, kBufferBytes);
  std::lock_guard<std::mutex> guard(g_lock);
  g_free.push_back(buffer);
}

std::atomic<uint64_t> g_timestampCalls{0};

void flushAtExit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (uint64_t calls = g_timestampCalls.load()) std::printf("timestamp_calls %llu\n", (unsigned long long)calls);
  if (g_count) printCounts();
  if (envIsOne("CUPTI_FLOOR_PROBE"))
    std::printf("completed_buffers on_main_thread %llu elsewhere %llu\n", (unsigned long long)g_completedOnMain.load(),
                (unsigned long long)g_completedElsewhere.load());
}

// One API call's enter or exit as a callback tracer keeps it: 16 bytes in a per-thread ring.
struct CallStamp {
  uint64_t ticks;
  uint32_t id;
  uint32_t phase;
};
constexpr size_t kStamps = 1 << 16;
thread_local CallStamp t_stamps[kStamps];
thread_local size_t t_next = 0;
thread_local int t_runtimeDepth = 0;

void CUPTIAPI onApi(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  bool enter = info->callbackSite == CUPTI_API_ENTER;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    t_runtimeDepth += enter ? 1 : -1;
  } else if (t_runtimeDepth > 0) {
    return;  // the runtime call around it is the one recorded
  }
  t_stamps[t_next++ & (kStamps - 1)] = {__rdtsc(), id, enter ? 0u : 1u};
}

// Nanoseconds from the time-stamp counter, at a rate measured once against CLOCK_MONOTONIC_RAW.
uint64_t CUPTIAPI tickTimestamp() {
  static const double nsPerTick = [] {
    uint64_t ns0 = clockNs(CLOCK_MONOTONIC_RAW), tick0 = __rdtsc();
    timespec pause{0, 20000000};
    nanosleep(&pause, nullptr);
    return double(clockNs(CLOCK_MONOTONIC_RAW) - ns0) / double(__rdtsc() - tick0);
  }();
  return uint64_t(double(__rdtsc()) * nsPerTick);
}

uint64_t CUPTIAPI countingTimestamp() {
  g_timestampCalls.fetch_add(1, std::memory_order_relaxed);
  return tickTimestamp();
}

void enableRawTimestamps() {
  using Enable = CUptiResult (*)(uint8_t);
  auto enable = reinterpret_cast<Enable>(dlsym(RTLD_DEFAULT, "cuptiActivityEnableRawTimestamps"));
  CUptiResult result = enable ? enable(1) : CUPTI_ERROR_NOT_SUPPORTED;
  if (result != CUPTI_SUCCESS) std::fprintf(stderr, "cupti_floor: raw timestamps refused (%d)\n", int(result));
}

std::vector<std::string> split(const char* text) {
  std::vector<std::string> parts;
  std::string part;
  for (const char* c = text;; ++c) {
    if (*c == ',' || !*c) {
      if (!part.empty()) parts.push_back(part);
      part.clear();
      if (!*c) break;
    } else {
      part += *c;
    }
  }
  return parts;
}

std::vector<CUpti_ActivityKind> chosenKinds() {
  const std::pair<const char*, std::vector<CUpti_ActivityKind>> names[] = {
      {"kernel", {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL}},
      {"memcpy", {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2}},
      {"memset", {CUPTI_ACTIVITY_KIND_MEMSET}},
      {"sync", {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION}},
      {"runtime", {CUPTI_ACTIVITY_KIND_RUNTIME}},
      {"driver", {CUPTI_ACTIVITY_KIND_DRIVER}},
      {"context", {CUPTI_ACTIVITY_KIND_CONTEXT}},
      {"stream", {CUPTI_ACTIVITY_KIND_STREAM}},
  };
  const char* wanted = std::getenv("CUPTI_FLOOR_KINDS");
  std::vector<CUpti_ActivityKind> kinds;
  for (const auto& [name, ids] : names) {
    bool on = !wanted && std::strcmp(name, "sync") != 0;
    if (wanted) {
      for (const std::string& part : split(wanted)) on = on || part == name;
    }
    if (on) kinds.insert(kinds.end(), ids.begin(), ids.end());
  }
  return kinds;
}

void subscribeToCallbacks() {
  const char* domains = std::getenv("CUPTI_FLOOR_CALLBACKS");
  if (!domains || !*domains) return;
  CUpti_SubscriberHandle subscriber;
  if (cuptiSubscribe(&subscriber, onApi, nullptr) != CUPTI_SUCCESS) return;
  if (std::strcmp(domains, "driver") != 0) cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  if (std::strcmp(domains, "runtime") != 0) cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
}

// Whether the part NAME of nsys's set-up is left out (CUPTI_FLOOR_NSYS_WITHOUT, a comma list).
bool nsysPartLeftOut(const char* name) {
  const char* without = std::getenv("CUPTI_FLOOR_NSYS_WITHOUT");
  if (!without) return false;
  for (const std::string& part : split(without)) {
    if (part == name) return true;
  }
  return false;
}

// What nsys asks of CUPTI, in the order its calls were seen (tests/gpu/cupti_spy.sh), less the OpenACC and
// unified-memory kinds, which need configuration and record nothing in a CUDA C++ program. Each part named in
// CUPTI_FLOOR_NSYS_WITHOUT is left out: zeroed, perthread, systid, tscb, raw, sync, extrakinds (OVERHEAD,
// CUDA_EVENT, EXTERNAL_CORRELATION, INTERNAL_LAUNCH_API, JIT), dump (plain cuptiActivityEnable for kernels,
// names and streams), flush0 (no cuptiActivityFlushPeriod(0)).
void setUpAsNsys() {
  uint8_t on = 1;
  size_t size = sizeof on;
  if (!nsysPartLeftOut("zeroed"))
    g_zeroed = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &on) == CUPTI_SUCCESS;
  if (!nsysPartLeftOut("perthread"))
    cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &on);
  if (!nsysPartLeftOut("systid")) cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  if (!nsysPartLeftOut("tscb")) cuptiActivityRegisterTimestampCallback(tickTimestamp);
  if (!nsysPartLeftOut("raw")) enableRawTimestamps();
  cuptiActivityRegisterCallbacks(requested, completed);
  bool sync = !envIsOne("CUPTI_FLOOR_NSYS_NOSYNC") && !nsysPartLeftOut("sync");
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_DRIVER,
                                  CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_CONTEXT}) {
    cuptiActivityEnable(kind);
  }
  if (sync) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  if (!nsysPartLeftOut("extrakinds")) {
    for (CUpti_ActivityKind kind :
         {CUPTI_ACTIVITY_KIND_OVERHEAD, CUPTI_ACTIVITY_KIND_CUDA_EVENT, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
          CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API, CUPTI_ACTIVITY_KIND_JIT}) {
      cuptiActivityEnable(kind);
    }
  }
  bool dump = !nsysPartLeftOut("dump");
  for (CUpti_ActivityKind kind :
       {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_NAME, CUPTI_ACTIVITY_KIND_STREAM}) {
    if (dump) {
      cuptiActivityEnableAndDump(kind);
    } else {
      cuptiActivityEnable(kind);
    }
  }
  gpuscope::cuda::leaveOutQueryApiCalls();
  leaveOutDriverLaunches();
  if (!nsysPartLeftOut("flush0")) cuptiActivityFlushPeriod(0);
  g_probe = envIsOne("CUPTI_FLOOR_PROBE");
  std::atexit(flushAtExit);
}

// CUPTI_FLOOR_PINNED and CUPTI_FLOOR_DEVICE_BUFFER_MB, before the first context is created (CUPTI reads them
// when it allocates a context's buffers).
void setTimestampBuffers() {
  if (envIsOne("CUPTI_FLOOR_PINNED")) {
    uint8_t on = 1;
    size_t size = sizeof on;
    if (cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, &size, &on) != CUPTI_SUCCESS)
      std::fprintf(stderr, "cupti_floor: pinned timestamp buffers refused\n");
  }
  if (const char* mb = std::getenv("CUPTI_FLOOR_DEVICE_BUFFER_MB")) {
    size_t bytes = std::strtoull(mb, nullptr, 10) << 20;
    size_t size = sizeof bytes;
    if (cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &bytes) != CUPTI_SUCCESS)
      std::fprintf(stderr, "cupti_floor: device buffer size refused\n");
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  setTimestampBuffers();
  g_count = envIsOne("CUPTI_FLOOR_COUNT");
  if (envIsOne("CUPTI_FLOOR_NSYS")) {
    setUpAsNsys();
    return 1;
  }
  subscribeToCallbacks();
  const char* zeroed = std::getenv("CUPTI_FLOOR_ZEROED");
  if (zeroed && std::strcmp(zeroed, "1") == 0) {
    uint8_t on = 1;
    size_t size = sizeof on;
    g_zeroed = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &on) == CUPTI_SUCCESS;
  }
  const char* systemTid = std::getenv("CUPTI_FLOOR_SYSTEM_TID");
  if (systemTid && std::strcmp(systemTid, "1") == 0) cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  if (envIsOne("CUPTI_FLOOR_TSCB"))
    cuptiActivityRegisterTimestampCallback(envIsOne("CUPTI_FLOOR_PROBE") ? countingTimestamp : tickTimestamp);
  if (envIsOne("CUPTI_FLOOR_RAW")) enableRawTimestamps();
  g_probe = envIsOne("CUPTI_FLOOR_PROBE");
  cuptiActivityRegisterCallbacks(requested, completed);
  for (CUpti_ActivityKind kind : chosenKinds()) cuptiActivityEnable(kind);
  gpuscope::cuda::leaveOutQueryApiCalls();
  leaveOutDriverLaunches();
  std::atexit(flushAtExit);
  return 1;
}
