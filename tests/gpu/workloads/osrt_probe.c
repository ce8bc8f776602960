/* Which OS-runtime calls nsys's default trace sees (tests/gpu/osrt_probe.sh): the same calls made
 * through glibc's current symbol versions and through the pre-2.34 ones that programs built on older
 * glibc (manylinux wheels: OpenBLAS, ...) still bind to, and calls made in a library constructor
 * run by dlopen. Each thread sleeps 3 ms (usleep), reads 5 lines with fgets and waits 3 ms on a
 * condition variable. Then 50 condition-variable round trips between two threads (each signal wakes a
 * blocked thread), and the same calls in an atexit handler (and in the library's destructor).
 * Usage: osrt_probe [PLUGIN.so] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* pthread_create and pthread_join as a program linked against glibc < 2.34 binds them. */
extern int pthread_create_old(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
extern int pthread_join_old(pthread_t, void**);
__asm__(".symver pthread_create_old, pthread_create@GLIBC_2.2.5");
__asm__(".symver pthread_join_old, pthread_join@GLIBC_2.2.5");

static void* work(void* unused) {
  (void)unused;
  usleep(3000);
  FILE* file = fopen("/proc/self/maps", "r");
  char line[512];
  for (int i = 0; file && i < 5; ++i) {
    if (!fgets(line, sizeof line, file)) break;
  }
  if (file) fclose(file);
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t never = PTHREAD_COND_INITIALIZER;
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 3000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&lock);
  pthread_cond_timedwait(&never, &lock, &deadline);
  pthread_mutex_unlock(&lock);
  return NULL;
}

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_ping = PTHREAD_COND_INITIALIZER;
static pthread_cond_t g_pong = PTHREAD_COND_INITIALIZER;
static int g_turn = 0;

static void* ponger(void* unused) {
  (void)unused;
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < 50; ++i) {
    while (g_turn != 1) pthread_cond_wait(&g_pong, &g_lock);
    g_turn = 0;
    pthread_cond_signal(&g_ping);
  }
  pthread_mutex_unlock(&g_lock);
  return NULL;
}

static void pingPong(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, ponger, NULL);
  usleep(2000);
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < 50; ++i) {
    g_turn = 1;
    pthread_cond_signal(&g_pong);
    while (g_turn != 0) pthread_cond_wait(&g_ping, &g_lock);
  }
  pthread_mutex_unlock(&g_lock);
  pthread_join(thread, NULL);
}

static void atExit(void) { work(NULL); }

int main(int argc, char** argv) {
  atexit(atExit);
  pthread_t current, old;
  pthread_create(&current, NULL, work, NULL);
  pthread_join(current, NULL);
  usleep(10000);
  pthread_create_old(&old, NULL, work, NULL);
  pthread_join_old(old, NULL);
  usleep(10000);
  if (argc > 1) {
    void* plugin = dlopen(argv[1], RTLD_NOW);
    if (!plugin) fprintf(stderr, "dlopen: %s\n", dlerror());
    usleep(10000);
    void (*later)(void) = plugin ? (void (*)(void))dlsym(plugin, "probe_later") : NULL;
    if (later) later();
  }
  work(NULL);
  pingPong();
  return 0;
}
