// A known split of CPU time: hot_a takes about 70% and hot_b about 30%, each timed by the program itself
// (CLOCK_THREAD_CPUTIME_ID), which prints "hot_a SECONDS hot_b SECONDS" at the end. Argument: total seconds.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double threadSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

volatile double sink;

__attribute__((noinline)) void hot_a(double seconds) {
  double end = threadSeconds() + seconds, x = 1.0;
  while (threadSeconds() < end)
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

__attribute__((noinline)) void hot_b(double seconds) {
  double end = threadSeconds() + seconds, x = 2.0;
  while (threadSeconds() < end)
    for (int i = 0; i < 1000; ++i) x = x * 0.9999999 + 1e-9;
  sink = x;
}

int main(int argc, char** argv) {
  double total = argc > 1 ? atof(argv[1]) : 2.0;
  double a = 0, b = 0;
  // Slices of 10 ms, so that a sampler sees both functions throughout.
  for (int slice = 0; slice < (int)(total / 0.01); ++slice) {
    double start = threadSeconds();
    hot_a(0.007);
    double middle = threadSeconds();
    hot_b(0.003);
    a += middle - start;
    b += threadSeconds() - middle;
  }
  printf("hot_a %.6f hot_b %.6f\n", a, b);
  return 0;
}
