// Where a program's main thread spends its CPU time, by shared object: an LD_PRELOAD library that samples the
// main thread's instruction pointer on a timer of that thread's CPU time, and prints at exit, to stderr, how
// many samples fell in each library ("pcs PROGRAM LIBRARY SAMPLES PERCENT") and the hottest symbols or
// 4 KiB pages of the two CUDA libraries ("pcs_top PROGRAM LIBRARY SYMBOL SAMPLES"). The lent GPU machines have
// no perf; this tells whether the launch loop's extra time under a tracer is in libcuda, libcupti, libc or the
// tracer's own code (issue 10: nsys runs the loop below the CUPTI floor). Leaf samples only: time in libc
// called from CUPTI counts as libc's. PC_SAMPLER_HZ sets the rate (default 1000; the kernel may round it to
// its tick).
//
// Build: gcc -O2 -fPIC -shared tests/gpu/workloads/pc_sampler.c -o libpc_sampler.so -ldl -lrt
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "program_name.h"
enum { kMaxSamples = 1 << 21, kMaxKeys = 4096 };
static uintptr_t g_samples[kMaxSamples];
static atomic_size_t g_count;
static timer_t g_timer;
static int g_armed;

static void onTick(int signal, siginfo_t* info, void* context) {
  (void)signal;
  (void)info;
  size_t slot = atomic_fetch_add_explicit(&g_count, 1, memory_order_relaxed);
  if (slot < kMaxSamples) g_samples[slot] = (uintptr_t)((ucontext_t*)context)->uc_mcontext.gregs[REG_RIP];
}

__attribute__((constructor)) static void arm(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = onTick;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGPROF, &action, NULL) != 0) return;
  struct sigevent event;
  memset(&event, 0, sizeof event);
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &g_timer) != 0) return;
  const char* hz = getenv("PC_SAMPLER_HZ");
  long period = 1000000000L / (hz && atol(hz) > 0 ? atol(hz) : 1000);
  struct itimerspec spec = {{period / 1000000000L, period % 1000000000L}, {period / 1000000000L, period % 1000000000L}};
  g_armed = timer_settime(g_timer, 0, &spec, NULL) == 0;
}

struct Tally {
  char key[160];
  size_t samples;
};

static void add(struct Tally* tallies, size_t* used, const char* key, size_t limit) {
  for (size_t i = 0; i < *used; ++i) {
    if (strcmp(tallies[i].key, key) == 0) {
      ++tallies[i].samples;
      return;
    }
  }
  if (*used == limit) return;
  snprintf(tallies[*used].key, sizeof tallies[*used].key, "%s", key);
  tallies[(*used)++].samples = 1;
}

static int bySamples(const void* a, const void* b) {
  size_t x = ((const struct Tally*)a)->samples, y = ((const struct Tally*)b)->samples;
  return x < y ? 1 : x > y ? -1 : 0;
}

static const char* baseName(const char* path) {
  const char* slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path ? path : "?";
}

__attribute__((destructor)) static void report(void) {
  if (!g_armed) return;
  timer_delete(g_timer);
  static struct Tally libraries[256], hottest[kMaxKeys];
  size_t usedLibraries = 0, usedHottest = 0;
  size_t count = atomic_load(&g_count);
  if (count > kMaxSamples) count = kMaxSamples;
  for (size_t i = 0; i < count; ++i) {
    Dl_info info;
    memset(&info, 0, sizeof info);
    int found = dladdr((void*)g_samples[i], &info);
    const char* library = found ? baseName(info.dli_fname) : "(unknown)";
    add(libraries, &usedLibraries, library, 256);
    if (found && (strstr(library, "libcuda") || strstr(library, "libcupti"))) {
      char key[160];
      if (info.dli_sname)
        snprintf(key, sizeof key, "%s:%s", library, info.dli_sname);
      else
        snprintf(key, sizeof key, "%s:+0x%lx", library,
                 (unsigned long)((g_samples[i] - (uintptr_t)info.dli_fbase) & ~(uintptr_t)0xfff));
      add(hottest, &usedHottest, key, kMaxKeys);
    }
  }
  char program[64];
  programName(program, sizeof program);
  qsort(libraries, usedLibraries, sizeof libraries[0], bySamples);
  qsort(hottest, usedHottest, sizeof hottest[0], bySamples);
  for (size_t i = 0; i < usedLibraries; ++i)
    fprintf(stderr, "pcs %s %s %zu %.1f\n", program, libraries[i].key, libraries[i].samples,
            100.0 * libraries[i].samples / (count ? count : 1));
  for (size_t i = 0; i < usedHottest && i < 12; ++i)
    fprintf(stderr, "pcs_top %s %s %zu\n", program, hottest[i].key, hottest[i].samples);
}
