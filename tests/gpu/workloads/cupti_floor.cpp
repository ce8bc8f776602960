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
//   CUPTI_FLOOR_CALLBACKS  runtime, driver or both: also subscribe to those API callbacks, and in each take
//                       a time-stamp-counter reading and store it with the call's id in a thread's buffer (the
//                       least a callback-based API tracer must do), skipping driver calls made inside a
//                       runtime call.
//
// Build (from the repository root): g++ -std=c++17 -O2 -fPIC -shared -I. -I$CUDA/include
//   tests/gpu/workloads/cupti_floor.cpp collector/cuda/query_api_filter.cpp -L<dir of libcupti.so> -lcupti
//   -o libcupti_floor.so, then run the program with CUDA_INJECTION64_PATH=libcupti_floor.so.
#include <cupti.h>
#include <x86intrin.h>

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

void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t) {
  if (g_zeroed) std::memset(buffer, 0, kBufferBytes);
  std::lock_guard<std::mutex> guard(g_lock);
  g_free.push_back(buffer);
}

void flushAtExit() { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

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

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  subscribeToCallbacks();
  const char* zeroed = std::getenv("CUPTI_FLOOR_ZEROED");
  if (zeroed && std::strcmp(zeroed, "1") == 0) {
    uint8_t on = 1;
    size_t size = sizeof on;
    g_zeroed = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &on) == CUPTI_SUCCESS;
  }
  const char* systemTid = std::getenv("CUPTI_FLOOR_SYSTEM_TID");
  if (systemTid && std::strcmp(systemTid, "1") == 0) cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  cuptiActivityRegisterCallbacks(requested, completed);
  for (CUpti_ActivityKind kind : chosenKinds()) cuptiActivityEnable(kind);
  gpuscope::cuda::leaveOutQueryApiCalls();
  std::atexit(flushAtExit);
  return 1;
}
