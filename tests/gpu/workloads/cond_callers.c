// Who makes a program's slow pthread_cond_signal / pthread_cond_broadcast calls (issue 10's osrt item 5:
// gpuscope counted 3-500 times nsys's on the PyTorch programs): an LD_PRELOAD library that times both
// functions and, for each call of at least 1 us (the OS-runtime threshold), notes the chain of libraries
// on its stack, outermost last (libstdc++ <- libcupti ...), skipping this library and gpuscope's interposer.
// Prints at exit, to stderr, "cond FUNCTION MAIN|OTHER COUNT CHAIN" for the 8 most frequent chains of each.
//
// Build: gcc -O2 -fPIC -shared tests/gpu/workloads/cond_callers.c -o libcond_callers.so -ldl
// Put it before gpuscope's interposer (LD_PRELOAD=libcond_callers.so:libgpuscope_inject.so, which gpuscope
// keeps as given), so that it sees the program's calls first and passes them on to gpuscope's wrappers.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { kChains = 64, kChainBytes = 160, kFrames = 12 };

struct Chain {
  int function;  // 0 signal, 1 broadcast
  int mainThread;
  long count;
  char text[kChainBytes];
};

static struct Chain g_chains[kChains];
static int g_used;
static pthread_spinlock_t g_lock;
static __thread int t_inside;

static long nowNs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000000000L + now.tv_nsec;
}

static const char* baseName(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

// "libstdc++.so.6 <- libcupti.so.13 <- ..." for the frames outside this library and gpuscope's.
static void describeStack(char* text) {
  void* frames[kFrames];
  int depth = backtrace(frames, kFrames);
  const char* last = "";
  size_t used = 0;
  text[0] = 0;
  for (int i = 1; i < depth && used + 40 < kChainBytes; ++i) {
    Dl_info info;
    if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
    const char* name = baseName(info.dli_fname);
    if (strstr(name, "cond_callers") || strstr(name, "gpuscope_inject") || strcmp(name, last) == 0) continue;
    used += (size_t)snprintf(text + used, kChainBytes - used, "%s%s", used ? " <- " : "", name);
    last = name;
  }
}

static void note(int function, long ns) {
  if (ns < 1000 || t_inside) return;
  t_inside = 1;
  char text[kChainBytes];
  describeStack(text);
  int mainThread = syscall(SYS_gettid) == getpid();
  pthread_spin_lock(&g_lock);
  int i = 0;
  while (i < g_used && !(g_chains[i].function == function && g_chains[i].mainThread == mainThread &&
                         strcmp(g_chains[i].text, text) == 0))
    ++i;
  if (i == g_used && g_used < kChains) {
    g_chains[i].function = function;
    g_chains[i].mainThread = mainThread;
    strcpy(g_chains[i].text, text);
    ++g_used;
  }
  if (i < g_used) ++g_chains[i].count;
  pthread_spin_unlock(&g_lock);
  t_inside = 0;
}

__attribute__((constructor)) static void start(void) { pthread_spin_init(&g_lock, PTHREAD_PROCESS_PRIVATE); }

__attribute__((destructor)) static void report(void) {
  for (int i = 0; i < g_used; ++i)
    fprintf(stderr, "cond %s %s %ld %s\n", g_chains[i].function ? "broadcast" : "signal",
            g_chains[i].mainThread ? "MAIN" : "OTHER", g_chains[i].count, g_chains[i].text);
}

int pthread_cond_signal(pthread_cond_t* cond) {
  static int (*next)(pthread_cond_t*);
  if (!next) next = (int (*)(pthread_cond_t*))dlsym(RTLD_NEXT, "pthread_cond_signal");
  long start = nowNs();
  int result = next(cond);
  note(0, nowNs() - start);
  return result;
}

int pthread_cond_broadcast(pthread_cond_t* cond) {
  static int (*next)(pthread_cond_t*);
  if (!next) next = (int (*)(pthread_cond_t*))dlsym(RTLD_NEXT, "pthread_cond_broadcast");
  long start = nowNs();
  int result = next(cond);
  note(1, nowNs() - start);
  return result;
}
