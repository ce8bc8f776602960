// gpuscope-gpu-metrics: the process that samples the GPUs' counters for `record --gpu-metrics`, as nsys samples
// them from its own daemon rather than from inside the program. Run by `record` with the recording's
// environment (CUDA_INJECTION64_PATH and GPUSCOPE_GPU_METRICS_HOST=1, so the CUDA injection starts PM sampling
// on each context this process creates and traces nothing of its own), it:
//   1. initializes CUDA and retains every visible GPU's primary context, which starts sampling on that GPU;
//   2. waits until each GPU has started or refused (the injection writes a byte per GPU to
//      GPUSCOPE_PM_STARTED_FD), then writes "ready" to the descriptor GPUSCOPE_GPU_METRICS_READY_FD names, so
//      `record` starts the program only once its GPUs are being sampled;
//   3. waits for SIGTERM or SIGINT and returns, so the injection's exit handler stops sampling and writes the
//      last samples while this process's contexts are still alive (a program's own exit tears its contexts
//      down before any handler of ours could stop the sampler cleanly).
// The driver is opened with dlopen: this program needs no CUDA headers or libraries to build.
#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuPrimaryRetain = int (*)(void**, int);

constexpr int kStartTimeoutMs = 60'000;

int fail(const std::string& message) {
  std::fprintf(stderr, "gpuscope-gpu-metrics: %s\n", message.c_str());
  return 1;
}

// Reads one byte per GPU from FD until COUNT have come or the time is up; how many came.
int waitForStarts(int fd, int count) {
  int seen = 0;
  while (seen < count) {
    pollfd wanted{fd, POLLIN, 0};
    if (poll(&wanted, 1, kStartTimeoutMs) <= 0) break;
    char byte = 0;
    if (read(fd, &byte, 1) != 1) break;
    ++seen;
  }
  return seen;
}

void sayReady(int started, int count) {
  const char* fdText = std::getenv("GPUSCOPE_GPU_METRICS_READY_FD");
  if (!fdText) return;
  int fd = std::atoi(fdText);
  std::string line = "ready " + std::to_string(started) + " of " + std::to_string(count) + "\n";
  ssize_t written = write(fd, line.data(), line.size());
  (void)written;
  close(fd);
}

}  // namespace

int main() {
  // Registered first, so it runs last at exit: once the injection's exit handler has stopped sampling and
  // written the last samples, the process ends without the CUDA and CUPTI teardown that follows, which has
  // nothing left to do for it (and crashed it once on an H200: "double free or corruption").
  std::atexit([] { _exit(0); });
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGTERM);
  sigaddset(&stopSignals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

  int started[2];
  if (pipe(started) != 0) return fail("cannot make a pipe");
  setenv("GPUSCOPE_PM_STARTED_FD", std::to_string(started[1]).c_str(), 1);

  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!driver) return fail("no CUDA driver (libcuda.so.1) here");
  auto cuInit = reinterpret_cast<CuInit>(dlsym(driver, "cuInit"));
  auto cuDeviceGetCount = reinterpret_cast<CuDeviceGetCount>(dlsym(driver, "cuDeviceGetCount"));
  auto cuDeviceGet = reinterpret_cast<CuDeviceGet>(dlsym(driver, "cuDeviceGet"));
  auto retain = reinterpret_cast<CuPrimaryRetain>(dlsym(driver, "cuDevicePrimaryCtxRetain"));
  if (!cuInit || !cuDeviceGetCount || !cuDeviceGet || !retain) return fail("the CUDA driver lacks its entry points");
  int count = 0;
  if (cuInit(0) != 0 || cuDeviceGetCount(&count) != 0 || count == 0) {
    sayReady(0, 0);
    return fail("no CUDA GPU to sample");
  }
  for (int index = 0; index < count; ++index) {
    int device = 0;
    void* context = nullptr;
    if (cuDeviceGet(&device, index) == 0) retain(&context, device);  // kept until exit: sampling needs it
  }
  sayReady(waitForStarts(started[0], count), count);
  int signal = 0;
  sigwait(&stopSignals, &signal);
  return 0;
}
