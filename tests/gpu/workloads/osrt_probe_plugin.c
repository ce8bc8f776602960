/* The library osrt_probe dlopens: its constructor makes the calls one thread of osrt_probe makes
 * (usleep, fopen, 5 fgets, fclose) and starts a thread that sleeps 5 ms;
 * probe_later makes them again after dlopen has returned, and the destructor once more at exit. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void calls(void) {
  usleep(3000);
  FILE* file = fopen("/proc/self/status", "r");
  char line[512];
  for (int i = 0; file && i < 5; ++i) {
    if (!fgets(line, sizeof line, file)) break;
  }
  if (file) fclose(file);
}

static void* waiter(void* unused) {
  (void)unused;
  usleep(5000);
  return NULL;
}

__attribute__((constructor)) static void atLoad(void) {
  calls();
  pthread_t thread;
  pthread_create(&thread, NULL, waiter, NULL);
  pthread_detach(thread);
}

void probe_later(void) { calls(); }

__attribute__((destructor)) static void atUnload(void) { calls(); }
