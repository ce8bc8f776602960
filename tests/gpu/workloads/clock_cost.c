// What one clock reading costs on this machine, for issue 10's launch-loop cost: CUPTI takes a few
// readings per launch (tests/gpu/issue10_noise_call.sh counts them), and gpuscope's CUPTI timestamp
// callback reads the time-stamp counter only where the kernel keeps time with it (clocksource "tsc",
// collector/inject/tick_clock.h); elsewhere each reading is a clock_gettime. Prints ns per reading:
//   clock_cost <name> <ns>   for rdtsc, CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW.
// Build: gcc -O2 clock_cost.c -o clock_cost
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

enum { kReadings = 5000000 };

static int64_t nowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void report(const char* name, int64_t startNs) {
  printf("clock_cost %s %.1f\n", name, (double)(nowNs() - startNs) / kReadings);
}

int main(void) {
  volatile uint64_t sink = 0;  // keeps the readings from being optimised away
  int64_t start = nowNs();
  for (int i = 0; i < kReadings; ++i) sink += __rdtsc();
  report("rdtsc", start);
  clockid_t clocks[] = {CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW};
  const char* names[] = {"CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW"};
  for (int c = 0; c < 2; ++c) {
    struct timespec t;
    start = nowNs();
    for (int i = 0; i < kReadings; ++i) {
      clock_gettime(clocks[c], &t);
      sink += (uint64_t)t.tv_nsec;
    }
    report(names[c], start);
  }
  return 0;
}
