// interposer_bench: what gpuscope's own recording path costs per call, apart from CUPTI: the
// OS-runtime interposer on calls shorter than the threshold (the common case: they are timed and
// left out), and NVTX ranges and marks through the injection into the rings. Run it bare and under
// `gpuscope record`; the difference per call is the recorder's cost:
//   build/bench/interposer_bench
//   build/app/gpuscope record -t osrt,nvtx -f -o /tmp/interposer.sqlite -- build/bench/interposer_bench
// Prints ns per call of each operation: the median of kRounds rounds, each timed in the thread's
// CPU time (the machine may be shared: time the thread spent descheduled is not counted). NVTX
// rounds are short, and the bench pauses between them, so the rings never fill: what is measured is
// the producer's own cost, not waiting for the recorder to drain.
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <thread>
#include <vector>

#ifdef GPUSCOPE_BENCH_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace {

constexpr int kRounds = 31;

int64_t cpuNs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// The median over kRounds of the time per call of BODY, run CALLS times a round; PAUSE between rounds.
double nsPerCall(int calls, std::chrono::milliseconds pause, const std::function<void(int)>& body) {
  std::vector<double> rounds;
  for (int round = 0; round < kRounds; ++round) {
    int64_t start = cpuNs();
    body(calls);
    rounds.push_back(static_cast<double>(cpuNs() - start) / calls);
    if (pause.count()) std::this_thread::sleep_for(pause);
  }
  std::nth_element(rounds.begin(), rounds.begin() + kRounds / 2, rounds.end());
  return rounds[kRounds / 2];
}

void report(const char* what, double ns) { std::printf("  %-44s %8.1f ns/call\n", what, ns); }

}  // namespace

int main() {
  constexpr int kCalls = 20'000;
  std::printf("interposer_bench: %s, median of %d rounds\n",
              std::getenv("GPUSCOPE_SESSION_DIR") ? "under gpuscope record" : "bare", kRounds);
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  report("pthread_mutex_lock + unlock (uncontended)", nsPerCall(kCalls, {}, [&](int n) {
           for (int i = 0; i < n; ++i) {
             pthread_mutex_lock(&mutex);
             pthread_mutex_unlock(&mutex);
           }
         }));
  report("pthread_mutex_trylock + unlock", nsPerCall(kCalls, {}, [&](int n) {
           for (int i = 0; i < n; ++i) {
             if (pthread_mutex_trylock(&mutex) == 0) pthread_mutex_unlock(&mutex);
           }
         }));
  // Under CUPTI the CUDA driver takes a read lock about 13 times per launch (and a mutex about 43 times):
  // tests/gpu/issue10_noise_call.sh COUNT_CALLS=1.
  pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
  report("pthread_rwlock_rdlock + unlock (uncontended)", nsPerCall(kCalls, {}, [&](int n) {
           for (int i = 0; i < n; ++i) {
             pthread_rwlock_rdlock(&rwlock);
             pthread_rwlock_unlock(&rwlock);
           }
         }));
  pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
  report("pthread_cond_signal (no waiter)", nsPerCall(kCalls, {}, [&](int n) {
           for (int i = 0; i < n; ++i) pthread_cond_signal(&condition);
         }));
  int zero = open("/dev/zero", O_RDONLY);
  report("read(/dev/zero, 1 byte)", nsPerCall(kCalls / 4, {}, [&](int n) {
           char byte;
           for (int i = 0; i < n; ++i) {
             if (read(zero, &byte, 1) != 1) std::abort();
           }
         }));
  report("fstat", nsPerCall(kCalls / 4, {}, [&](int n) {
           struct stat info {};
           for (int i = 0; i < n; ++i) fstat(zero, &info);
         }));
  close(zero);
#ifdef GPUSCOPE_BENCH_NVTX
  // 4,000 ranges a round: 8,000 records, well within a thread's 1 MiB ring.
  constexpr int kRanges = 4'000;
  constexpr std::chrono::milliseconds kDrain{20};
  report("nvtxRangePushA + nvtxRangePop", nsPerCall(kRanges, kDrain, [](int n) {
           for (int i = 0; i < n; ++i) {
             nvtxRangePushA("step");
             nvtxRangePop();
           }
         }));
  report("nvtxMarkA", nsPerCall(kRanges, kDrain, [](int n) {
           for (int i = 0; i < n; ++i) nvtxMarkA("mark");
         }));
#else
  std::printf("  (built without the NVTX headers: no NVTX figures)\n");
#endif
  return 0;
}
