// A thread that sleeps half of its time: 10 ms of work, then 10 ms of nanosleep, timed by the program
// itself, which prints "running SECONDS sleeping SECONDS" at the end. Argument: total seconds.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clockSeconds(clockid_t clock) {
  struct timespec now;
  clock_gettime(clock, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

volatile double sink;

__attribute__((noinline)) void work(double seconds) {
  double end = clockSeconds(CLOCK_MONOTONIC) + seconds, x = 1.0;
  while (clockSeconds(CLOCK_MONOTONIC) < end)
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

int main(int argc, char** argv) {
  double total = argc > 1 ? atof(argv[1]) : 2.0;
  double running = 0, sleeping = 0;
  struct timespec pause = {0, 10 * 1000 * 1000};
  for (int slice = 0; slice < (int)(total / 0.02); ++slice) {
    double start = clockSeconds(CLOCK_MONOTONIC);
    work(0.010);
    double middle = clockSeconds(CLOCK_MONOTONIC);
    nanosleep(&pause, NULL);
    running += middle - start;
    sleeping += clockSeconds(CLOCK_MONOTONIC) - middle;
  }
  printf("running %.6f sleeping %.6f\n", running, sleeping);
  return 0;
}
