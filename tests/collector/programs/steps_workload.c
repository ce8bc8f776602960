// A CPU-only stand-in for workloads/caprange.py, for the capture-range and session tests: STEPS steps, each
// an NVTX range "step N" (a plain string, or a registered one with "registered") holding 5 x (an NVTX mark
// "op" and a 200 us nanosleep, an OS-runtime call). Before step PROFILER_START it calls what CUPTI's
// cudaProfilerStart callback calls, gpuscope_cuda_profiler_start, found in the preloaded collector; after
// step PROFILER_STOP, gpuscope_cuda_profiler_stop: a test double of torch.cuda.profiler.start()/stop()
// without a GPU. STEP_US (default 0) more microseconds of sleep per step slow the loop for session tests;
// SLOW_STEP, when given, sleeps 100 x that long once (far beyond a loaded machine's scheduling noise). PROFILER_STOP
// below PROFILER_START puts a profiler range around every step from PROFILER_START on (for --capture-range-end repeat).
// Usage: steps_workload STEPS PROFILER_START PROFILER_STOP [STEP_US] [registered|plain] [SLOW_STEP]
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleepMicroseconds(long us) {
  struct timespec pause = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&pause, NULL);
}

static void callCollector(const char* name) {
  void (*function)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, name);
  if (function) function();
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: steps_workload STEPS PROFILER_START PROFILER_STOP [STEP_US] [registered] [SLOW_STEP]\n");
    return 2;
  }
  int steps = atoi(argv[1]);
  int profilerStart = atoi(argv[2]);
  int profilerStop = atoi(argv[3]);
  long stepUs = argc > 4 ? atol(argv[4]) : 0;
  int registered = argc > 5 && strcmp(argv[5], "registered") == 0;
  int slowStep = argc > 6 ? atoi(argv[6]) : -1;
  int everyStep = profilerStart >= 0 && profilerStop < profilerStart;
  for (int i = 0; i < steps; ++i) {
    if (i == profilerStart || (everyStep && i > profilerStart)) callCollector("gpuscope_cuda_profiler_start");
    char name[32];
    snprintf(name, sizeof name, "step %d", i);
    if (registered) {
      nvtxEventAttributes_t attributes = {0};
      attributes.version = NVTX_VERSION;
      attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
      attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
      attributes.message.registered = nvtxDomainRegisterStringA(NULL, name);
      nvtxRangePushEx(&attributes);
    } else {
      nvtxRangePushA(name);
    }
    for (int op = 0; op < 5; ++op) {
      nvtxMarkA("op");
      sleepMicroseconds(200);
    }
    if (stepUs > 0) sleepMicroseconds(i == slowStep ? 100 * stepUs : stepUs);
    nvtxRangePop();
    if (i == profilerStop || (everyStep && i >= profilerStart)) callCollector("gpuscope_cuda_profiler_stop");
  }
  printf("done %d steps\n", steps);
  return 0;
}
