// Which CUPTI activity kinds and callbacks another tool turns on (issue 10: what Nsight Systems'
// default CUDA trace pays for): an LD_PRELOAD library that logs each CUPTI enabling call it sees and
// passes it on, one "cupti_spy ..." line per call on stderr. Nsight Systems loads its own libcupti and
// looks its functions up with dlsym, so dlsym is wrapped too: each "cupti*" name looked up is logged
// ("cupti_spy lookup NAME"), and the spied ones are handed out as the wrappers below.
//
// Build: gcc -O2 -fPIC -shared -I$CUDA/include tests/gpu/workloads/cupti_spy.c -o libcupti_spy.so -ldl
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

// In newer CUPTI headers than some toolkits carry.
CUptiResult CUPTIAPI cuptiActivityEnableRawTimestamps(uint8_t enable);
CUptiResult CUPTIAPI cuptiActivityEnableCudaEventDeviceTimestamps(uint8_t enable);

// The real function behind each wrapper: from the tool's own dlsym lookup, else the next definition.
#define NEXT(name)                                                              \
  ({                                                                            \
    if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name); \
    real_##name;                                                                \
  })
// clang-format off
#define SPIED(X) \
  X(cuptiActivityEnable) \
  X(cuptiActivityEnableContext) \
  X(cuptiActivityEnableDriverApi) \
  X(cuptiActivityEnableRuntimeApi) \
  X(cuptiSubscribe) \
  X(cuptiEnableDomain) \
  X(cuptiEnableAllDomains) \
  X(cuptiEnableCallback) \
  X(cuptiActivityRegisterTimestampCallback) \
  X(cuptiActivitySetAttribute) \
  X(cuptiActivityEnableLatencyTimestamps) \
  X(cuptiActivityEnableLaunchAttributes) \
  X(cuptiSetThreadIdType) \
  X(cuptiActivityEnableAndDump) \
  X(cuptiActivityFlushPeriod) \
  X(cuptiActivityEnableRawTimestamps) \
  X(cuptiActivityEnableHWTrace) \
  X(cuptiActivityEnableCudaEventDeviceTimestamps) \
  X(cuptiActivityEnableDeviceGraph)
// clang-format on
#define DECLARE_REAL(name) static __typeof__(&name) real_##name;
SPIED(DECLARE_REAL)

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
  CUptiResult result = NEXT(cuptiActivityEnable)(kind);
  fprintf(stderr, "cupti_spy activity_enable kind=%d result=%d\n", (int)kind, (int)result);
  return result;
}

CUptiResult cuptiActivityEnableContext(CUcontext context, CUpti_ActivityKind kind) {
  CUptiResult result = NEXT(cuptiActivityEnableContext)(context, kind);
  fprintf(stderr, "cupti_spy activity_enable_context kind=%d result=%d\n", (int)kind, (int)result);
  return result;
}

CUptiResult cuptiActivityEnableDriverApi(CUpti_CallbackId id, uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableDriverApi)(id, enable);
  fprintf(stderr, "cupti_spy activity_driver_api cbid=%u enable=%u\n", id, enable);
  return result;
}

CUptiResult cuptiActivityEnableRuntimeApi(CUpti_CallbackId id, uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableRuntimeApi)(id, enable);
  fprintf(stderr, "cupti_spy activity_runtime_api cbid=%u enable=%u\n", id, enable);
  return result;
}

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* data) {
  CUptiResult result = NEXT(cuptiSubscribe)(subscriber, callback, data);
  fprintf(stderr, "cupti_spy subscribe result=%d\n", (int)result);
  return result;
}

CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain) {
  CUptiResult result = NEXT(cuptiEnableDomain)(enable, subscriber, domain);
  fprintf(stderr, "cupti_spy enable_domain domain=%d enable=%u\n", (int)domain, enable);
  return result;
}

CUptiResult cuptiEnableAllDomains(uint32_t enable, CUpti_SubscriberHandle subscriber) {
  CUptiResult result = NEXT(cuptiEnableAllDomains)(enable, subscriber);
  fprintf(stderr, "cupti_spy enable_all_domains enable=%u\n", enable);
  return result;
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain,
                                CUpti_CallbackId id) {
  CUptiResult result = NEXT(cuptiEnableCallback)(enable, subscriber, domain, id);
  fprintf(stderr, "cupti_spy enable_callback domain=%d cbid=%u enable=%u\n", (int)domain, id, enable);
  return result;
}

CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc callback) {
  CUptiResult result = NEXT(cuptiActivityRegisterTimestampCallback)(callback);
  fprintf(stderr, "cupti_spy timestamp_callback result=%d\n", (int)result);
  return result;
}

CUptiResult cuptiActivitySetAttribute(CUpti_ActivityAttribute attribute, size_t* size, void* value) {
  CUptiResult result = NEXT(cuptiActivitySetAttribute)(attribute, size, value);
  unsigned long long shown = 0;
  if (size && value && *size <= sizeof shown) __builtin_memcpy(&shown, value, *size);
  fprintf(stderr, "cupti_spy set_attribute attribute=%d value=%llu\n", (int)attribute, shown);
  return result;
}

CUptiResult cuptiActivityEnableLatencyTimestamps(uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableLatencyTimestamps)(enable);
  fprintf(stderr, "cupti_spy latency_timestamps enable=%u\n", enable);
  return result;
}

CUptiResult cuptiActivityEnableLaunchAttributes(uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableLaunchAttributes)(enable);
  fprintf(stderr, "cupti_spy launch_attributes enable=%u\n", enable);
  return result;
}

CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
  CUptiResult result = NEXT(cuptiSetThreadIdType)(type);
  fprintf(stderr, "cupti_spy thread_id_type type=%d\n", (int)type);
  return result;
}

CUptiResult cuptiActivityEnableAndDump(CUpti_ActivityKind kind) {
  CUptiResult result = NEXT(cuptiActivityEnableAndDump)(kind);
  fprintf(stderr, "cupti_spy activity_enable_and_dump kind=%d result=%d\n", (int)kind, (int)result);
  return result;
}

CUptiResult cuptiActivityFlushPeriod(uint32_t ms) {
  CUptiResult result = NEXT(cuptiActivityFlushPeriod)(ms);
  fprintf(stderr, "cupti_spy flush_period ms=%u result=%d\n", ms, (int)result);
  return result;
}

CUptiResult cuptiActivityEnableRawTimestamps(uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableRawTimestamps)(enable);
  fprintf(stderr, "cupti_spy raw_timestamps enable=%u result=%d\n", enable, (int)result);
  return result;
}

CUptiResult cuptiActivityEnableHWTrace(uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableHWTrace)(enable);
  fprintf(stderr, "cupti_spy hw_trace enable=%u result=%d\n", enable, (int)result);
  return result;
}

CUptiResult cuptiActivityEnableCudaEventDeviceTimestamps(uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableCudaEventDeviceTimestamps)(enable);
  fprintf(stderr, "cupti_spy cuda_event_device_timestamps enable=%u result=%d\n", enable, (int)result);
  return result;
}

CUptiResult cuptiActivityEnableDeviceGraph(uint8_t enable) {
  CUptiResult result = NEXT(cuptiActivityEnableDeviceGraph)(enable);
  fprintf(stderr, "cupti_spy device_graph enable=%u result=%d\n", enable, (int)result);
  return result;
}

// At exit, the tool libraries the process had loaded (where its CUPTI came from).
static int printToolLibrary(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  (void)data;
  const char* name = info->dlpi_name;
  if (name && !strstr(name, "cupti_spy") &&
      (strstr(name, "cupti") || strstr(name, "Injection") || strstr(name, "nsys")))
    fprintf(stderr, "cupti_spy loaded %s\n", name);
  return 0;
}

__attribute__((destructor)) static void printToolLibraries(void) { dl_iterate_phdr(printToolLibrary, NULL); }

// The tool's lookups: a spied name gets its wrapper (the real function is kept for it).
void* dlsym(void* handle, const char* name) {
  static void* (*real)(void*, const char*);
  if (!real) real = (void* (*)(void*, const char*))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
  if (!real) real = (void* (*)(void*, const char*))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
  void* found = real(handle, name);
  if (!found || strncmp(name, "cupti", 5) != 0 || handle == RTLD_NEXT) return found;
  fprintf(stderr, "cupti_spy lookup %s\n", name);
#define HAND_OUT(spied)                                          \
  if (strcmp(name, #spied) == 0) {                               \
    if (!real_##spied) real_##spied = (__typeof__(&spied))found; \
    return (void*)&spied;                                        \
  }
  SPIED(HAND_OUT)
  return found;
}
