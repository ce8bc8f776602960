// How many times a program calls the libc functions gpuscope's OS-runtime interposer wraps on a hot
// path (locks, condition variables, semaphores, ioctl, read/write, poll): an LD_PRELOAD library that
// counts each call and passes it on, and prints the counts of its process at exit to stderr as
// "calls PROGRAM FUNCTION COUNT". Used by tests/gpu/issue10_noise_call.sh to find what a launch-heavy
// program's CUDA driver calls through the interposer per launch.
//
// Build: gcc -O2 -fPIC -shared tests/gpu/workloads/count_calls.c -o libcount_calls.so -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "program_name.h"
enum {
  kMutexLock,
  kMutexTrylock,
  kCondSignal,
  kCondBroadcast,
  kRdlock,
  kWrlock,
  kSemPost,
  kSemWait,
  kIoctl,
  kRead,
  kWrite,
  kPoll,
  kCount
};
static const char* const kNames[kCount] = {"pthread_mutex_lock",
                                           "pthread_mutex_trylock",
                                           "pthread_cond_signal",
                                           "pthread_cond_broadcast",
                                           "pthread_rwlock_rdlock",
                                           "pthread_rwlock_wrlock",
                                           "sem_post",
                                           "sem_wait",
                                           "ioctl",
                                           "read",
                                           "write",
                                           "poll"};
static unsigned long g_counts[kCount];

#define COUNT(which) __atomic_fetch_add(&g_counts[which], 1, __ATOMIC_RELAXED)
#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
#define NEXT_VERSION(name) ((__typeof__(&name))dlvsym(RTLD_NEXT, #name, "GLIBC_2.3.2"))

int pthread_mutex_lock(pthread_mutex_t* m) {
  static __typeof__(&pthread_mutex_lock) next;
  if (!next) next = NEXT(pthread_mutex_lock);
  COUNT(kMutexLock);
  return next(m);
}
int pthread_mutex_trylock(pthread_mutex_t* m) {
  static __typeof__(&pthread_mutex_trylock) next;
  if (!next) next = NEXT(pthread_mutex_trylock);
  COUNT(kMutexTrylock);
  return next(m);
}
int pthread_cond_signal(pthread_cond_t* c) {
  static __typeof__(&pthread_cond_signal) next;
  if (!next) next = NEXT_VERSION(pthread_cond_signal);
  COUNT(kCondSignal);
  return next(c);
}
int pthread_cond_broadcast(pthread_cond_t* c) {
  static __typeof__(&pthread_cond_broadcast) next;
  if (!next) next = NEXT_VERSION(pthread_cond_broadcast);
  COUNT(kCondBroadcast);
  return next(c);
}
int pthread_rwlock_rdlock(pthread_rwlock_t* l) {
  static __typeof__(&pthread_rwlock_rdlock) next;
  if (!next) next = NEXT(pthread_rwlock_rdlock);
  COUNT(kRdlock);
  return next(l);
}
int pthread_rwlock_wrlock(pthread_rwlock_t* l) {
  static __typeof__(&pthread_rwlock_wrlock) next;
  if (!next) next = NEXT(pthread_rwlock_wrlock);
  COUNT(kWrlock);
  return next(l);
}
int sem_post(sem_t* s) {
  static __typeof__(&sem_post) next;
  if (!next) next = NEXT(sem_post);
  COUNT(kSemPost);
  return next(s);
}
int sem_wait(sem_t* s) {
  static __typeof__(&sem_wait) next;
  if (!next) next = NEXT(sem_wait);
  COUNT(kSemWait);
  return next(s);
}
int ioctl(int fd, unsigned long request, ...) {
  static int (*next)(int, unsigned long, void*);
  if (!next) next = (int (*)(int, unsigned long, void*))dlsym(RTLD_NEXT, "ioctl");
  va_list args;
  va_start(args, request);
  void* argument = va_arg(args, void*);
  va_end(args);
  COUNT(kIoctl);
  return next(fd, request, argument);
}
ssize_t read(int fd, void* buffer, size_t size) {
  static __typeof__(&read) next;
  if (!next) next = NEXT(read);
  COUNT(kRead);
  return next(fd, buffer, size);
}
ssize_t write(int fd, const void* buffer, size_t size) {
  static __typeof__(&write) next;
  if (!next) next = NEXT(write);
  COUNT(kWrite);
  return next(fd, buffer, size);
}
int poll(struct pollfd* fds, nfds_t count, int timeout) {
  static __typeof__(&poll) next;
  if (!next) next = NEXT(poll);
  COUNT(kPoll);
  return next(fds, count, timeout);
}

__attribute__((destructor)) static void printCounts(void) {
  char program[64];
  programName(program, sizeof program);
  for (int i = 0; i < kCount; ++i) {
    if (g_counts[i]) fprintf(stderr, "calls %s %s %lu\n", program, kNames[i], g_counts[i]);
  }
}
