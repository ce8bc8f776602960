// The cost of CUPTI's activity API alone, for the overhead check (tests/gpu/overhead.sh): a CUDA
// injection library that turns on the activity kinds gpuscope records, leaves out the same query getters,
// and hands every completed buffer straight back unread. What a program loses under it is what any
// CUPTI-activity-based tracer must cost it; gpuscope's own share is what it costs beyond that.
//
// Build (from the repository root): g++ -std=c++17 -O2 -fPIC -shared -I. -I$CUDA/include
//   tests/gpu/workloads/cupti_floor.cpp collector/cuda/query_api_filter.cpp -L<dir of libcupti.so> -lcupti
//   -o libcupti_floor.so, then run the program with CUDA_INJECTION64_PATH=libcupti_floor.so.
#include <cupti.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "collector/cuda/query_api_filter.h"

namespace {

constexpr size_t kBufferBytes = 4 << 20;
std::mutex g_lock;
std::vector<uint8_t*> g_free;

void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  std::lock_guard<std::mutex> guard(g_lock);
  if (g_free.empty()) {
    g_free.push_back(static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes)));
  }
  *buffer = g_free.back();
  g_free.pop_back();
  *size = kBufferBytes;
  *maxRecords = 0;
}

void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t) {
  std::lock_guard<std::mutex> guard(g_lock);
  g_free.push_back(buffer);
}

void flushAtExit() { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  cuptiActivityRegisterCallbacks(requested, completed);
  for (CUpti_ActivityKind kind :
       {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_RUNTIME,
        CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_CONTEXT, CUPTI_ACTIVITY_KIND_STREAM})
    cuptiActivityEnable(kind);
  gpuscope::cuda::leaveOutQueryApiCalls();
  std::atexit(flushAtExit);
  return 1;
}
