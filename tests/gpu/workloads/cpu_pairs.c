// Which of a VM's CPUs slow each other down: the guest may say one thread per core while the host runs two
// of its vCPUs on the two hardware threads of one physical core. The launch loop's times are bimodal on the
// lent machines (a process runs near 220 or near 300 ms under every tracer), and a tracer's helper thread
// landing on the main thread's hidden sibling would do that.
//
// For each CPU alone, then for every pair, two threads pinned there spin on integer work for SPAN_MS; a
// CPU's rate in the pair against its rate alone is the pair's slowdown. Prints "alone CPU RATE" lines, then
// "pair A B SLOWDOWN_A SLOWDOWN_B" for every pair, then "siblings A B" for pairs where both slow by more
// than 20%, and last "independent LIST": a greedy set of CPUs no two of which are siblings.
// Build: gcc -O2 -pthread cpu_pairs.c -o cpu_pairs. Run: cpu_pairs [SPAN_MS (default 60)].
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kMaxCpus = 64 };

typedef struct {
  int cpu;
  double spanNs;
  double rate;  // work units per millisecond
} Spinner;

static double nowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static void* spin(void* arg) {
  Spinner* spinner = arg;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(spinner->cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  volatile uint64_t sink = 0;
  uint64_t x = 88172645463325252ull, units = 0;
  double start = nowNs(), end = start + spinner->spanNs, now = start;
  while (now < end) {
    for (int i = 0; i < 4096; ++i) {  // xorshift: integer work that stays in registers
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    units += 1;
    now = nowNs();
  }
  sink = x;
  (void)sink;
  spinner->rate = units / ((now - start) / 1e6);
  return NULL;
}

// Runs one spinner on each of COUNT CPUs at once; their rates go to RATES.
static void runTogether(const int* cpus, int count, double spanNs, double* rates) {
  pthread_t threads[2];
  Spinner spinners[2];
  for (int i = 0; i < count; ++i) {
    spinners[i] = (Spinner){cpus[i], spanNs, 0};
    pthread_create(&threads[i], NULL, spin, &spinners[i]);
  }
  for (int i = 0; i < count; ++i) {
    pthread_join(threads[i], NULL);
    rates[i] = spinners[i].rate;
  }
}

int main(int argc, char** argv) {
  double spanNs = (argc > 1 ? atof(argv[1]) : 60) * 1e6;
  cpu_set_t allowed;
  sched_getaffinity(0, sizeof allowed, &allowed);
  int cpus[kMaxCpus], count = 0;
  for (int cpu = 0; cpu < kMaxCpus; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) cpus[count++] = cpu;
  double alone[kMaxCpus];
  for (int i = 0; i < count; ++i) {
    runTogether(&cpus[i], 1, spanNs, &alone[i]);
    printf("alone %d %.1f\n", cpus[i], alone[i]);
  }
  static int sibling[kMaxCpus][kMaxCpus];
  for (int i = 0; i < count; ++i) {
    for (int j = i + 1; j < count; ++j) {
      int pair[2] = {cpus[i], cpus[j]};
      double rates[2];
      runTogether(pair, 2, spanNs, rates);
      double slowI = 1 - rates[0] / alone[i], slowJ = 1 - rates[1] / alone[j];
      printf("pair %d %d %.2f %.2f\n", cpus[i], cpus[j], slowI, slowJ);
      sibling[i][j] = sibling[j][i] = slowI > 0.2 && slowJ > 0.2;
    }
  }
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j)
      if (sibling[i][j]) printf("siblings %d %d\n", cpus[i], cpus[j]);
  printf("independent ");
  int chosen[kMaxCpus], chosenCount = 0;
  for (int i = 0; i < count; ++i) {
    int clash = 0;
    for (int k = 0; k < chosenCount; ++k) clash |= sibling[i][chosen[k]];
    if (clash) continue;
    printf("%s%d", chosenCount ? "," : "", cpus[i]);
    chosen[chosenCount++] = i;
  }
  printf("\n");
  return 0;
}
