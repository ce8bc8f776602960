/* A program for the recorder's crash tests. Two threads each make 20 usleep(2000) calls, then the
 * program writes "ready" to LOGFILE, spins 150 ms without any call the recorder sees, and ends as
 * MODE says: quick (exit 0), segv, abort, kill (SIGKILL itself), wait (sleeps until a signal) or
 * count (counts the SIGINTs it gets: from the first one on it waits 300 ms more, appends
 * "interrupts N" to LOGFILE and exits 0).
 * Usage: crash_workload MODE LOGFILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static volatile sig_atomic_t interrupts = 0;

static void countInterrupt(int signal) {
  (void)signal;
  ++interrupts;
}

static void sleepNs(long ns) {
  struct timespec pause = {0, ns};
  syscall(SYS_nanosleep, &pause, NULL);
}

/* Waits for a SIGINT, then 300 ms for any other, and appends how many came to LOGFILE. */
static void countInterrupts(const char* logfile) {
  while (interrupts == 0) sleepNs(1000000);
  for (int i = 0; i < 30; ++i) sleepNs(10000000);
  char line[32] = "interrupts ";
  int length = 11;
  int count = interrupts;
  char digits[12];
  int n = 0;
  do {
    digits[n++] = (char)('0' + count % 10);
    count /= 10;
  } while (count > 0);
  while (n > 0) line[length++] = digits[--n];
  line[length++] = '\n';
  int fd = (int)syscall(SYS_openat, AT_FDCWD, logfile, O_WRONLY | O_APPEND, 0600);
  syscall(SYS_write, fd, line, length);
  syscall(SYS_close, fd);
}

static void* sleeper(void* unused) {
  (void)unused;
  for (int i = 0; i < 20; ++i) usleep(2000);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* mode = argv[1];
  pthread_t thread;
  pthread_create(&thread, NULL, sleeper, NULL);
  sleeper(NULL);
  pthread_join(thread, NULL);
  if (strcmp(mode, "count") == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = countInterrupt;
    sigaction(SIGINT, &action, NULL);
  }
  /* Raw system calls from here: nothing below shows up in the trace. */
  int fd = (int)syscall(SYS_openat, AT_FDCWD, argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
  syscall(SYS_write, fd, "ready\n", 6);
  syscall(SYS_close, fd);
  int64_t until = now() + 150000000;
  while (now() < until) {
  }
  if (strcmp(mode, "segv") == 0) {
    volatile int* nowhere = NULL;
    *nowhere = 1;
  } else if (strcmp(mode, "abort") == 0) {
    abort();
  } else if (strcmp(mode, "kill") == 0) {
    syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
  } else if (strcmp(mode, "wait") == 0) {
    for (;;) sleepNs(10000000);
  } else if (strcmp(mode, "count") == 0) {
    countInterrupts(argv[2]);
  }
  return 0;
}
