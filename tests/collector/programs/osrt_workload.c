/* A program for the recorder tests: blocks on a mutex, a condition variable, a semaphore, a pipe and
 * sleeps, does file I/O, names its threads and forks a child. It logs what it did, timed with the
 * recorder's clock (CLOCK_MONOTONIC), one line per call: LABEL TID START_NS END_NS.
 * Usage: osrt_workload LOGFILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static FILE* logFile;
static pthread_mutex_t logLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t contended = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t conditionLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
static int signalled = 0;
static sem_t semaphore;
static int pipeFds[2];

static int64_t now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void logCall(const char* label, int64_t start, int64_t end) {
  /* The log itself is written with raw system calls after the run, so it adds no OS-runtime rows. */
  static char buffer[1 << 16];
  static size_t used;
  pthread_mutex_lock(&logLock);
  used += (size_t)snprintf(buffer + used, sizeof buffer - used, "%s %ld %lld %lld\n", label, (long)syscall(SYS_gettid),
                           (long long)start, (long long)end);
  if (!label[0]) {
    syscall(SYS_write, fileno(logFile), buffer, used);
    used = 0;
  }
  pthread_mutex_unlock(&logLock);
}

static void sleepMs(int ms) {
  struct timespec duration = {0, ms * 1000000L};
  nanosleep(&duration, NULL);
}

static void* holder(void* unused) {
  (void)unused;
  pthread_setname_np(pthread_self(), "holder");
  pthread_mutex_lock(&contended);
  sleepMs(40); /* the waiter blocks on the mutex meanwhile */
  pthread_mutex_unlock(&contended);
  sleepMs(20);
  pthread_mutex_lock(&conditionLock);
  signalled = 1;
  pthread_cond_signal(&condition);
  pthread_mutex_unlock(&conditionLock);
  sleepMs(20);
  sem_post(&semaphore);
  sleepMs(20);
  if (write(pipeFds[1], "x", 1) != 1) abort();
  return NULL;
}

static void* waiter(void* unused) {
  (void)unused;
  pthread_setname_np(pthread_self(), "waiter");
  sleepMs(10);
  int64_t start = now();
  pthread_mutex_lock(&contended);
  logCall("mutex", start, now());
  pthread_mutex_unlock(&contended);

  start = now();
  pthread_mutex_lock(&conditionLock);
  while (!signalled) pthread_cond_wait(&condition, &conditionLock);
  pthread_mutex_unlock(&conditionLock);
  logCall("cond", start, now());

  start = now();
  sem_wait(&semaphore);
  logCall("sem", start, now());

  struct pollfd readable = {pipeFds[0], POLLIN, 0};
  start = now();
  poll(&readable, 1, 5000);
  logCall("poll", start, now());
  char byte;
  if (read(pipeFds[0], &byte, 1) != 1) abort();
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  logFile = fopen(argv[1], "w");
  if (!logFile) return 2;
  sem_init(&semaphore, 0, 0);
  if (pipe(pipeFds) != 0) return 2;

  int64_t start = now();
  sleepMs(25);
  logCall("sleep", start, now());

  pthread_t threads[2];
  pthread_create(&threads[0], NULL, holder, NULL);
  pthread_create(&threads[1], NULL, waiter, NULL);
  pthread_join(threads[0], NULL);
  pthread_join(threads[1], NULL);

  /* File I/O: 8 MiB written and read back in 1 MiB calls. */
  char path[4096];
  snprintf(path, sizeof path, "%s.data", argv[1]);
  static char block[1 << 20];
  memset(block, 'g', sizeof block);
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  for (int i = 0; i < 8; ++i) {
    if (write(fd, block, sizeof block) != (ssize_t)sizeof block) return 3;
  }
  fsync(fd);
  close(fd);
  fd = open(path, O_RDONLY);
  while (read(fd, block, sizeof block) > 0) {
  }
  close(fd);
  unlink(path);

  /* A child process that sleeps, waited for by the parent. */
  pid_t child = fork();
  if (child == 0) {
    sleepMs(30);
    _exit(7);
  }
  int status = 0;
  start = now();
  waitpid(child, &status, 0);
  logCall("waitpid", start, now());
  char line[64];
  snprintf(line, sizeof line, "child %d", (int)child);
  logCall(line, 0, 0);
  logCall("", 0, 0); /* flush */
  return WIFEXITED(status) && WEXITSTATUS(status) == 7 ? 0 : 4;
}
