// A program for the recorder's NVTX tests, using the header-only NVTX v3 API: push/pop nesting,
// marks, a start/end range that ends on another thread, a domain with a registered string,
// categories, colours, payloads, wide strings and thread names. Logs LABEL TID START_NS END_NS,
// timed with the recorder's clock, for the ranges whose timing the test checks.
// Usage: nvtx_workload LOGFILE
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

namespace {

int64_t now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

long tid() { return syscall(SYS_gettid); }

std::string g_log;

void logCall(const char* label, long thread, int64_t start, int64_t end) {
  g_log += std::string(label) + " " + std::to_string(thread) + " " + std::to_string(start) + " " + std::to_string(end) +
           "\n";
}

nvtxEventAttributes_t attributes(const char* message) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  nvtxNameOsThreadA(static_cast<uint32_t>(tid()), "nvtx-main");
  nvtxNameCategoryA(3, "phase");

  int64_t outerStart = now();
  nvtxEventAttributes_t outer = attributes("outer");
  outer.colorType = NVTX_COLOR_ARGB;
  outer.color = 0xFF0000FF;
  outer.category = 3;
  outer.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  outer.payload.ullValue = 7;
  nvtxRangePushEx(&outer);
  int64_t innerStart = now();
  nvtxRangePushA("inner");
  usleep(5000);
  nvtxRangePop();
  int64_t innerEnd = now();
  nvtxMarkA("checkpoint");
  nvtxRangePop();
  int64_t outerEnd = now();
  logCall("outer", tid(), outerStart, outerEnd);
  logCall("inner", tid(), innerStart, innerEnd);

  nvtxDomainHandle_t domain = nvtxDomainCreateA("workload-domain");
  nvtxStringHandle_t registered = nvtxDomainRegisterStringA(domain, "registered-step");
  for (int i = 0; i < 3; ++i) {
    nvtxEventAttributes_t step{};
    step.version = NVTX_VERSION;
    step.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    step.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    step.message.registered = registered;
    nvtxDomainRangePushEx(domain, &step);
    usleep(1000);
    nvtxDomainRangePop(domain);
  }
  nvtxEventAttributes_t domainMark = attributes("domain-mark");
  nvtxDomainMarkEx(domain, &domainMark);

  nvtxRangePushW(L"wide \u00fcn\u00efcode");
  nvtxRangePop();

  // A start/end range begun here and ended by a worker thread.
  int64_t handoffStart = now();
  nvtxRangeId_t handoff = nvtxRangeStartA("handoff");
  long workerTid = 0;
  int64_t handoffEnd = 0;
  std::thread worker([&] {
    pthread_setname_np(pthread_self(), "nvtx-worker");
    workerTid = tid();
    usleep(3000);
    nvtxRangeEnd(handoff);
    handoffEnd = now();
    nvtxRangePushA("worker-range");
    nvtxRangePop();
  });
  worker.join();
  logCall("handoff", workerTid, handoffStart, handoffEnd);

  // One mark per payload type.
  nvtxEventAttributes_t payload = attributes("payload-i64");
  payload.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  payload.payload.llValue = -5;
  nvtxMarkEx(&payload);
  payload = attributes("payload-double");
  payload.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  payload.payload.dValue = 2.5;
  nvtxMarkEx(&payload);

  // A range still open when the program ends is closed at its last event.
  nvtxRangePushA("never-popped");
  FILE* log = std::fopen(argv[1], "w");
  if (!log) return 3;
  std::fputs(g_log.c_str(), log);
  std::fclose(log);
  return 0;
}
