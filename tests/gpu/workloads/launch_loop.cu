// Overhead workload: 50,000 launches of an empty kernel on one stream. Prints the time the loop and
// the final synchronization took, on the program's own clock, as "loop_ns N".
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void tiny(int* out) {
  if (out && threadIdx.x == 1024) *out = 1;
}

// Keeps the GPU busy for NS nanoseconds of its global timer, so that its clocks have ramped up before the
// timed loop: without it, runs came out bimodal (near 250 or near 400 ms under every tracer, bare 159-260 ms).
__global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// One hardware counter of the calling thread, user space only (a tracer's cost on the launch path is user
// code: the loop's system time is under 1 ms). Unlike time, the instruction count does not move with the lent
// machine's speed, which drifts between rounds by more than the tracers differ. -1 where there is none (a VM
// without a virtual PMU); the reason goes to stderr once.
static int openThreadCounter(unsigned long long config) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = config;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  if (fd < 0) std::perror("launch_loop: perf_event_open");
  return fd;
}

static long long readCounter(int fd) {
  long long value = 0;
  return fd >= 0 && read(fd, &value, sizeof value) == sizeof value ? value : -1;
}

int main(int argc, char** argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 50000;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess) return 1;
  tiny<<<1, 32, 0, stream>>>(nullptr);  // warm up: module load, context
  const char* warm = std::getenv("WARM_MS");
  spin<<<1, 1, 0, stream>>>((warm ? std::strtoull(warm, nullptr, 10) : 300ull) * 1000000ull);
  for (int i = 0; i < 10000; ++i) tiny<<<1, 32, 0, stream>>>(nullptr);  // and the launch path
  cudaStreamSynchronize(stream);
  // LOOP_REPS timed loops in this one process (default 1): "loop_ns" is their median, "loop_ns_each" lists
  // them, to tell a spread between loops from one between processes.
  const char* repsText = std::getenv("LOOP_REPS");
  const int reps = std::max(1, repsText ? std::atoi(repsText) : 1);
  // "enqueue_ns_each": when each loop's last launch returned. Close to its loop time, the loop is bound by
  // the CPU's launch path (what a tracer slows); far below it, by the GPU working through the queue.
  std::vector<long long> loops, enqueues;
  // Per loop, from the main thread's rusage: CPU time (user, system), involuntary context switches and
  // minor page faults. Loop time minus CPU time is time the thread was not running: a tracer that slows
  // the launch path itself raises cpu_ns; one whose threads take the program's CPU raises ivcsw.
  std::vector<long long> userNs, systemNs, preempted, faults;
  // And the main thread's instructions and cycles per loop: instructions price the work a tracer adds to the
  // launch path; cycles per instruction, whether a slow loop did more work or the same work more slowly.
  const int instructionFd = openThreadCounter(PERF_COUNT_HW_INSTRUCTIONS);
  const int cycleFd = instructionFd >= 0 ? openThreadCounter(PERF_COUNT_HW_CPU_CYCLES) : -1;
  std::vector<long long> instructions, cycles;
  auto usage = [] {
    rusage now{};
    getrusage(RUSAGE_THREAD, &now);
    return now;
  };
  auto ns = [](const timeval& t) { return t.tv_sec * 1000000000ll + t.tv_usec * 1000ll; };
  auto since = [](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  };
  for (int r = 0; r < reps; ++r) {
    rusage before = usage();
    const long long instructionsBefore = readCounter(instructionFd), cyclesBefore = readCounter(cycleFd);
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) tiny<<<1, 32, 0, stream>>>(nullptr);
    enqueues.push_back(since(start));
    if (cudaStreamSynchronize(stream) != cudaSuccess) return 2;
    loops.push_back(since(start));
    const long long instructionsAfter = readCounter(instructionFd), cyclesAfter = readCounter(cycleFd);
    instructions.push_back(instructionFd >= 0 ? instructionsAfter - instructionsBefore : -1);
    cycles.push_back(cycleFd >= 0 ? cyclesAfter - cyclesBefore : -1);
    rusage after = usage();
    userNs.push_back(ns(after.ru_utime) - ns(before.ru_utime));
    systemNs.push_back(ns(after.ru_stime) - ns(before.ru_stime));
    preempted.push_back(after.ru_nivcsw - before.ru_nivcsw);
    faults.push_back(after.ru_minflt - before.ru_minflt);
  }
  auto print = [](const char* label, const std::vector<long long>& values) {
    std::printf("%s", label);
    for (long long ns : values) std::printf(" %lld", ns);
    std::printf("\n");
  };
  print("loop_ns_each", loops);
  print("enqueue_ns_each", enqueues);
  print("user_ns_each", userNs);
  print("system_ns_each", systemNs);
  print("ivcsw_each", preempted);
  print("minflt_each", faults);
  print("instructions_each", instructions);
  print("cycles_each", cycles);
  std::nth_element(loops.begin(), loops.begin() + reps / 2, loops.end());
  std::printf("loop_ns %lld\n", loops[static_cast<size_t>(reps / 2)]);
  return 0;
}
