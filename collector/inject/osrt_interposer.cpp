// The OS-runtime interposer: libc functions that block or do I/O, timed around the real call and
// recorded when they took at least the threshold (1 us by default, as nsys). Also follows the
// programs the target executes by keeping gpuscope's variables in their environment.
//
// Every wrapper calls the next definition of the same symbol (dlsym RTLD_NEXT). When the process
// is not recorded, or the calling thread is inside the recorder or is a gpuscope thread, the
// wrapper only calls through. errno is preserved across the recording.
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>

#include "collector/inject/osrt_record.h"
#include "collector/inject/recorder_internal.h"
#include "collector/inject/tick_clock.h"
#include "collector/transport/osrt_functions.h"
#include "collector/transport/session_clock.h"

extern char** environ;

#ifndef GPUSCOPE_LOCK_WRAPPERS
#define GPUSCOPE_LOCK_WRAPPERS 1
#endif

namespace gpuscope::inject {
namespace {

using transport::OsrtFunction;

void* lookUp(const char* name, const char* version) {
  void* function = version ? dlvsym(RTLD_NEXT, name, version) : nullptr;
  return function ? function : dlsym(RTLD_NEXT, name);
}

// The next definition of a symbol, looked up once.
template <typename Function>
Function nextDefinition(std::atomic<void*>& slot, const char* name, const char* version = nullptr) {
  void* function = slot.load(std::memory_order_acquire);
  if (!function) {
    function = lookUp(name, version);
    slot.store(function, std::memory_order_release);
  }
  return reinterpret_cast<Function>(function);
}

template <typename Result>
int64_t returnCode(Result result) {
  if constexpr (std::is_pointer_v<Result>) {
    return result ? 0 : -1;
  } else {
    return static_cast<int64_t>(result);
  }
}

// Times CALL(NEXT) and records it as FUNCTION (on TickClock: most calls are timed only to be left
// out). NEXT, the real function, is looked up by the caller before the clock starts: the first
// call's dlsym (several us) is the wrapper's work, not the program's, and must not push a short
// call over the threshold.
template <typename Next, typename Call>
auto timed(OsrtFunction function, const void* caller, Next next, Call&& call) -> decltype(call(next)) {
  ProcessRecorder* recorder = osrtRecorder();
  if (!recorder) return call(next);
  int64_t start = TickClock::now();
  auto result = call(next);
  int64_t end = TickClock::now();
  recordCall(recorder, function, start, end, returnCode(result), caller, reinterpret_cast<const void*>(next));
  return result;
}

// A thread created by gpuscope's own code: marked as a tool thread before it runs.
struct ToolThreadStart {
  void* (*start)(void*);
  void* argument;
};

void* startToolThread(void* raw) {
  ToolThreadStart launch = *static_cast<ToolThreadStart*>(raw);
  delete static_cast<ToolThreadStart*>(raw);
  markToolThread();
  return launch.start(launch.argument);
}

// An environment that still carries gpuscope's variables, built on the caller's stack (this runs
// between vfork and exec too, where allocating is not allowed).
struct FollowedEnvironment {
  static constexpr size_t kMaxEntries = 1024;
  static constexpr size_t kPreloadBytes = 4096;
  char* const* entries = nullptr;
  const char* storage[kMaxEntries + 16];
  char preload[kPreloadBytes];

  explicit FollowedEnvironment(char* const* original) {
    entries = original;
    const char* const* follow = followEnvironment();
    if (!follow[0] || !original) return;
    size_t count = 0;
    while (original[count]) ++count;
    if (count >= kMaxEntries) return;
    size_t used = 0;
    bool changed = false;
    for (size_t i = 0; i < count; ++i) storage[used++] = original[i];
    for (const char* const* wanted = follow; *wanted; ++wanted) {
      const char* equals = std::strchr(*wanted, '=');
      if (!equals) continue;
      size_t nameLength = static_cast<size_t>(equals - *wanted) + 1;  // "NAME="
      size_t found = used;
      for (size_t i = 0; i < used; ++i) {
        if (std::strncmp(storage[i], *wanted, nameLength) == 0) found = i;
      }
      if (found == used) {
        storage[used++] = *wanted;
        changed = true;
      } else if (nameLength == sizeof("LD_PRELOAD=") - 1 && std::strncmp(*wanted, "LD_PRELOAD=", nameLength) == 0) {
        // Keep the program's preloads, with ours first.
        const char* ours = *wanted + nameLength;
        const char* theirs = storage[found] + nameLength;
        if (std::strstr(theirs, ours)) continue;
        size_t need = nameLength + std::strlen(ours) + 1 + std::strlen(theirs) + 1;
        if (need > sizeof preload) continue;
        std::memcpy(preload, *wanted, nameLength + std::strlen(ours));
        size_t at = nameLength + std::strlen(ours);
        if (*theirs) preload[at++] = ':';
        std::memcpy(preload + at, theirs, std::strlen(theirs) + 1);
        storage[found] = preload;
        changed = true;
      }
    }
    if (!changed) return;
    storage[used] = nullptr;
    entries = const_cast<char* const*>(storage);
  }
};

std::atomic<void*> g_next[static_cast<size_t>(OsrtFunction::Count) + 4];
constexpr size_t kPosixSpawnSlot = static_cast<size_t>(OsrtFunction::Count);
constexpr size_t kPosixSpawnpSlot = kPosixSpawnSlot + 1;
constexpr size_t kSetNameSlot = kPosixSpawnSlot + 2;

#define GPUSCOPE_NEXT(name) nextDefinition<decltype(&::name)>(g_next[static_cast<size_t>(OsrtFunction::name)], #name)
#define GPUSCOPE_NEXT_VERSION(name, version) \
  nextDefinition<decltype(&::name)>(g_next[static_cast<size_t>(OsrtFunction::name)], #name, version)
// Both expand inside the exported wrapper, so __builtin_return_address(0) is the program's call site.
#define GPUSCOPE_TIMED(name, ...)                                             \
  timed(OsrtFunction::name, __builtin_return_address(0), GPUSCOPE_NEXT(name), \
        [&](auto nextFunction) { return nextFunction(__VA_ARGS__); })
#define GPUSCOPE_TIMED_VERSION(name, version, ...)                                             \
  timed(OsrtFunction::name, __builtin_return_address(0), GPUSCOPE_NEXT_VERSION(name, version), \
        [&](auto nextFunction) { return nextFunction(__VA_ARGS__); })

// The thread-blocking calls below first try the non-blocking variant: an uncontended lock costs
// no clock reads and can never reach the threshold.
bool isOwnPid() {
  ProcessRecorder* recorder = ProcessRecorder::get();
  return recorder && static_cast<uint32_t>(syscall(SYS_getpid)) == recorder->pid();
}

}  // namespace
}  // namespace gpuscope::inject

using gpuscope::inject::FollowedEnvironment;
using gpuscope::inject::g_next;
using gpuscope::inject::nextDefinition;
using gpuscope::inject::osrtRecorder;
using gpuscope::inject::timed;
using gpuscope::transport::OsrtFunction;

extern "C" {

// ---- mutexes, read-write locks, condition variables, barriers, threads ----

// GPUSCOPE_LOCK_WRAPPERS=0 builds libgpuscope_inject_nolocks.so, which `record` preloads when the OS runtime is
// not traced: the launch path of a CUDA program then calls glibc's locks directly rather than through a
// wrapper that only calls through (about 56 calls a launch under CUPTI, below).
#if GPUSCOPE_LOCK_WRAPPERS
// Under CUPTI the CUDA driver takes a mutex about 43 times and a read lock about 13 times per launch
// (tests/gpu/issue10_noise_call.sh COUNT_CALLS=1): these two wrappers are on every launch's path.
//
// A mutex whose lock word is 0 is free (glibc, every mutex kind): it is taken with the real lock at once,
// untimed, which costs about 0.5 ns more than the bare call where glibc's trylock first cost 3 ns more
// (bench/interposer_bench). A wait is timed only when the lock word shows an owner. The one wait this
// cannot see is one that begins in the few nanoseconds between reading the word and glibc's own
// compare-and-swap, when another thread takes the mutex in between; a lock waited on at length is held
// most of the time, so its waits are timed.
__attribute__((visibility("default"))) int pthread_mutex_lock(pthread_mutex_t* mutex) noexcept {
  if (!gpuscope::inject::g_config.traceOsrt || __atomic_load_n(&mutex->__data.__lock, __ATOMIC_RELAXED) == 0)
    return GPUSCOPE_NEXT(pthread_mutex_lock)(mutex);
  // glibc's own, not the wrapper below: this try is part of the lock, not a call of the program.
  int result = GPUSCOPE_NEXT(pthread_mutex_trylock)(mutex);
  if (result != EBUSY) return result;
  if (!osrtRecorder()) return GPUSCOPE_NEXT(pthread_mutex_lock)(mutex);
  return GPUSCOPE_TIMED(pthread_mutex_lock, mutex);
}

__attribute__((visibility("default"))) int pthread_mutex_trylock(pthread_mutex_t* mutex) noexcept {
  return GPUSCOPE_TIMED(pthread_mutex_trylock, mutex);
}

__attribute__((visibility("default"))) int pthread_mutex_timedlock(pthread_mutex_t* mutex,
                                                                   const struct timespec* deadline) noexcept {
  return GPUSCOPE_TIMED(pthread_mutex_timedlock, mutex, deadline);
}

__attribute__((visibility("default"))) int pthread_mutex_clocklock(pthread_mutex_t* mutex, clockid_t clock,
                                                                   const struct timespec* deadline) noexcept {
  return GPUSCOPE_TIMED(pthread_mutex_clocklock, mutex, clock, deadline);
}

// nsys records rwlock waits (3 rdlock and 3 wrlock calls of tests/gpu/workloads/lb.cu); an uncontended lock is
// taken with the try version first, so only a wait that could reach the threshold pays for the clock reads.
__attribute__((visibility("default"))) int pthread_rwlock_rdlock(pthread_rwlock_t* lock) noexcept {
  if (!gpuscope::inject::g_config.traceOsrt) return GPUSCOPE_NEXT(pthread_rwlock_rdlock)(lock);
  int result = pthread_rwlock_tryrdlock(lock);
  if (result != EBUSY) return result;
  if (!osrtRecorder()) return GPUSCOPE_NEXT(pthread_rwlock_rdlock)(lock);
  return GPUSCOPE_TIMED(pthread_rwlock_rdlock, lock);
}

__attribute__((visibility("default"))) int pthread_rwlock_wrlock(pthread_rwlock_t* lock) noexcept {
  if (!gpuscope::inject::g_config.traceOsrt) return GPUSCOPE_NEXT(pthread_rwlock_wrlock)(lock);
  int result = pthread_rwlock_trywrlock(lock);
  if (result != EBUSY) return result;
  if (!osrtRecorder()) return GPUSCOPE_NEXT(pthread_rwlock_wrlock)(lock);
  return GPUSCOPE_TIMED(pthread_rwlock_wrlock, lock);
}

__attribute__((visibility("default"))) int pthread_rwlock_timedrdlock(pthread_rwlock_t* lock,
                                                                      const struct timespec* deadline) noexcept {
  return GPUSCOPE_TIMED(pthread_rwlock_timedrdlock, lock, deadline);
}

__attribute__((visibility("default"))) int pthread_rwlock_timedwrlock(pthread_rwlock_t* lock,
                                                                      const struct timespec* deadline) noexcept {
  return GPUSCOPE_TIMED(pthread_rwlock_timedwrlock, lock, deadline);
}
#endif  // GPUSCOPE_LOCK_WRAPPERS

// The condition variable functions have two versions in glibc; programs built since 2002 use 2.3.2.
__attribute__((visibility("default"))) int pthread_cond_wait(pthread_cond_t* condition, pthread_mutex_t* mutex) {
  return GPUSCOPE_TIMED_VERSION(pthread_cond_wait, "GLIBC_2.3.2", condition, mutex);
}

__attribute__((visibility("default"))) int pthread_cond_timedwait(pthread_cond_t* condition, pthread_mutex_t* mutex,
                                                                  const struct timespec* deadline) {
  return GPUSCOPE_TIMED_VERSION(pthread_cond_timedwait, "GLIBC_2.3.2", condition, mutex, deadline);
}

__attribute__((visibility("default"))) int pthread_cond_clockwait(pthread_cond_t* condition, pthread_mutex_t* mutex,
                                                                  clockid_t clock, const struct timespec* deadline) {
  return GPUSCOPE_TIMED(pthread_cond_clockwait, condition, mutex, clock, deadline);
}

__attribute__((visibility("default"))) int pthread_cond_signal(pthread_cond_t* condition) noexcept {
  return GPUSCOPE_TIMED_VERSION(pthread_cond_signal, "GLIBC_2.3.2", condition);
}

__attribute__((visibility("default"))) int pthread_cond_broadcast(pthread_cond_t* condition) noexcept {
  return GPUSCOPE_TIMED_VERSION(pthread_cond_broadcast, "GLIBC_2.3.2", condition);
}

__attribute__((visibility("default"))) int pthread_join(pthread_t thread, void** result) {
  return GPUSCOPE_TIMED(pthread_join, thread, result);
}

__attribute__((visibility("default"))) int pthread_barrier_wait(pthread_barrier_t* barrier) noexcept {
  return GPUSCOPE_TIMED(pthread_barrier_wait, barrier);
}

// A thread that gpuscope's own code (CUPTI) creates is a tool thread, and its creation is not recorded.
__attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attributes,
                                                          void* (*start)(void*), void* argument) noexcept {
  const void* caller = __builtin_return_address(0);
  auto next = GPUSCOPE_NEXT(pthread_create);
  if (gpuscope::inject::g_recording.load(std::memory_order_relaxed) && gpuscope::inject::isOwnCode(caller)) {
    auto* launch = new (std::nothrow) gpuscope::inject::ToolThreadStart{start, argument};
    if (launch) {
      int result = next(thread, attributes, gpuscope::inject::startToolThread, launch);
      if (result != 0) delete launch;
      return result;
    }
  }
  return timed(OsrtFunction::pthread_create, caller, next,
               [&](auto function) { return function(thread, attributes, start, argument); });
}

// A thread naming itself: the new name goes to ThreadNames (nothing is timed).
__attribute__((visibility("default"))) int pthread_setname_np(pthread_t thread, const char* name) noexcept {
  int result = nextDefinition<decltype(&::pthread_setname_np)>(g_next[gpuscope::inject::kSetNameSlot],
                                                               "pthread_setname_np")(thread, name);
  gpuscope::inject::ProcessRecorder* recorder = gpuscope::inject::ProcessRecorder::get();
  if (result == 0 && recorder && pthread_equal(thread, pthread_self())) {
    int savedErrno = errno;
    std::string_view text(name, strnlen(name, 64));
    gpuscope::transport::ThreadNameBody body{static_cast<uint32_t>(gpuscope::transport::ThreadNameSource::Os),
                                             static_cast<uint32_t>(text.size())};
    recorder->emit(gpuscope::transport::RecordType::ThreadName, 0, &body, sizeof body, {text});
    errno = savedErrno;
  }
  return result;
}

// ---- semaphores ----

__attribute__((visibility("default"))) int sem_wait(sem_t* semaphore) {
  if (!osrtRecorder()) return GPUSCOPE_NEXT(sem_wait)(semaphore);
  int savedErrno = errno;
  if (sem_trywait(semaphore) == 0) return 0;
  errno = savedErrno;
  return GPUSCOPE_TIMED(sem_wait, semaphore);
}

__attribute__((visibility("default"))) int sem_timedwait(sem_t* semaphore, const struct timespec* deadline) {
  return GPUSCOPE_TIMED(sem_timedwait, semaphore, deadline);
}

__attribute__((visibility("default"))) int sem_clockwait(sem_t* semaphore, clockid_t clock,
                                                         const struct timespec* deadline) {
  return GPUSCOPE_TIMED(sem_clockwait, semaphore, clock, deadline);
}

// ---- sleeping and waiting for descriptors ----

__attribute__((visibility("default"))) unsigned int sleep(unsigned int seconds) {
  return GPUSCOPE_TIMED(sleep, seconds);
}

__attribute__((visibility("default"))) int usleep(useconds_t microseconds) {
  return GPUSCOPE_TIMED(usleep, microseconds);
}

__attribute__((visibility("default"))) int nanosleep(const struct timespec* duration, struct timespec* remaining) {
  return GPUSCOPE_TIMED(nanosleep, duration, remaining);
}

__attribute__((visibility("default"))) int clock_nanosleep(clockid_t clock, int flags, const struct timespec* time,
                                                           struct timespec* remaining) {
  return GPUSCOPE_TIMED(clock_nanosleep, clock, flags, time, remaining);
}

__attribute__((visibility("default"))) int poll(struct pollfd* fds, nfds_t count, int timeoutMs) {
  return GPUSCOPE_TIMED(poll, fds, count, timeoutMs);
}

__attribute__((visibility("default"))) int ppoll(struct pollfd* fds, nfds_t count, const struct timespec* timeout,
                                                 const sigset_t* mask) {
  return GPUSCOPE_TIMED(ppoll, fds, count, timeout, mask);
}

__attribute__((visibility("default"))) int select(int count, fd_set* readable, fd_set* writable, fd_set* failed,
                                                  struct timeval* timeout) {
  return GPUSCOPE_TIMED(select, count, readable, writable, failed, timeout);
}

__attribute__((visibility("default"))) int pselect(int count, fd_set* readable, fd_set* writable, fd_set* failed,
                                                   const struct timespec* timeout, const sigset_t* mask) {
  return GPUSCOPE_TIMED(pselect, count, readable, writable, failed, timeout, mask);
}

__attribute__((visibility("default"))) int epoll_wait(int epoll, struct epoll_event* events, int maxEvents,
                                                      int timeoutMs) {
  return GPUSCOPE_TIMED(epoll_wait, epoll, events, maxEvents, timeoutMs);
}

__attribute__((visibility("default"))) int epoll_pwait(int epoll, struct epoll_event* events, int maxEvents,
                                                       int timeoutMs, const sigset_t* mask) {
  return GPUSCOPE_TIMED(epoll_pwait, epoll, events, maxEvents, timeoutMs, mask);
}

// ---- file and socket I/O ----

__attribute__((visibility("default"))) ssize_t read(int fd, void* buffer, size_t bytes) {
  return GPUSCOPE_TIMED(read, fd, buffer, bytes);
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void* buffer, size_t bytes) {
  return GPUSCOPE_TIMED(write, fd, buffer, bytes);
}

__attribute__((visibility("default"))) ssize_t pread(int fd, void* buffer, size_t bytes, off_t offset) {
  return GPUSCOPE_TIMED(pread, fd, buffer, bytes, offset);
}

__attribute__((visibility("default"))) ssize_t pread64(int fd, void* buffer, size_t bytes, off64_t offset) {
  return GPUSCOPE_TIMED(pread64, fd, buffer, bytes, offset);
}

__attribute__((visibility("default"))) ssize_t pwrite(int fd, const void* buffer, size_t bytes, off_t offset) {
  return GPUSCOPE_TIMED(pwrite, fd, buffer, bytes, offset);
}

__attribute__((visibility("default"))) ssize_t pwrite64(int fd, const void* buffer, size_t bytes, off64_t offset) {
  return GPUSCOPE_TIMED(pwrite64, fd, buffer, bytes, offset);
}

__attribute__((visibility("default"))) ssize_t readv(int fd, const struct iovec* vectors, int count) {
  return GPUSCOPE_TIMED(readv, fd, vectors, count);
}

__attribute__((visibility("default"))) ssize_t writev(int fd, const struct iovec* vectors, int count) {
  return GPUSCOPE_TIMED(writev, fd, vectors, count);
}

// open and openat take a mode only with O_CREAT or O_TMPFILE.
static mode_t openMode(int flags, va_list arguments) {
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) return static_cast<mode_t>(va_arg(arguments, int));
  return 0;
}

__attribute__((visibility("default"))) int open(const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = openMode(flags, arguments);
  va_end(arguments);
  return GPUSCOPE_TIMED(open, path, flags, mode);
}

__attribute__((visibility("default"))) int open64(const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = openMode(flags, arguments);
  va_end(arguments);
  return GPUSCOPE_TIMED(open64, path, flags, mode);
}

__attribute__((visibility("default"))) int openat(int directory, const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = openMode(flags, arguments);
  va_end(arguments);
  return GPUSCOPE_TIMED(openat, directory, path, flags, mode);
}

__attribute__((visibility("default"))) int openat64(int directory, const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = openMode(flags, arguments);
  va_end(arguments);
  return GPUSCOPE_TIMED(openat64, directory, path, flags, mode);
}

__attribute__((visibility("default"))) int creat(const char* path, mode_t mode) {
  return GPUSCOPE_TIMED(creat, path, mode);
}

__attribute__((visibility("default"))) int close(int fd) { return GPUSCOPE_TIMED(close, fd); }

__attribute__((visibility("default"))) int stat(const char* path, struct stat* info) noexcept {
  return GPUSCOPE_TIMED(stat, path, info);
}

__attribute__((visibility("default"))) int stat64(const char* path, struct stat64* info) noexcept {
  return GPUSCOPE_TIMED(stat64, path, info);
}

__attribute__((visibility("default"))) int lstat(const char* path, struct stat* info) noexcept {
  return GPUSCOPE_TIMED(lstat, path, info);
}

__attribute__((visibility("default"))) int lstat64(const char* path, struct stat64* info) noexcept {
  return GPUSCOPE_TIMED(lstat64, path, info);
}

__attribute__((visibility("default"))) int fstat(int fd, struct stat* info) noexcept {
  return GPUSCOPE_TIMED(fstat, fd, info);
}

__attribute__((visibility("default"))) int fstat64(int fd, struct stat64* info) noexcept {
  return GPUSCOPE_TIMED(fstat64, fd, info);
}

__attribute__((visibility("default"))) int fstatat(int directory, const char* path, struct stat* info,
                                                   int flags) noexcept {
  return GPUSCOPE_TIMED(fstatat, directory, path, info, flags);
}

__attribute__((visibility("default"))) int fstatat64(int directory, const char* path, struct stat64* info,
                                                     int flags) noexcept {
  return GPUSCOPE_TIMED(fstatat64, directory, path, info, flags);
}

// fcntl's third argument is an int or a pointer, as the command says; glibc reads it as a pointer.
__attribute__((visibility("default"))) int fcntl(int fd, int command, ...) {
  va_list arguments;
  va_start(arguments, command);
  void* argument = va_arg(arguments, void*);
  va_end(arguments);
  return timed(OsrtFunction::fcntl, __builtin_return_address(0),
               nextDefinition<int (*)(int, int, void*)>(g_next[static_cast<size_t>(OsrtFunction::fcntl)], "fcntl"),
               [&](auto next) { return next(fd, command, argument); });
}

__attribute__((visibility("default"))) int fcntl64(int fd, int command, ...) {
  va_list arguments;
  va_start(arguments, command);
  void* argument = va_arg(arguments, void*);
  va_end(arguments);
  return timed(OsrtFunction::fcntl64, __builtin_return_address(0),
               nextDefinition<int (*)(int, int, void*)>(g_next[static_cast<size_t>(OsrtFunction::fcntl64)], "fcntl64"),
               [&](auto next) { return next(fd, command, argument); });
}

__attribute__((visibility("default"))) int posix_fallocate(int fd, off_t offset, off_t length) {
  return GPUSCOPE_TIMED(posix_fallocate, fd, offset, length);
}

__attribute__((visibility("default"))) int posix_fallocate64(int fd, off64_t offset, off64_t length) {
  return GPUSCOPE_TIMED(posix_fallocate64, fd, offset, length);
}

__attribute__((visibility("default"))) FILE* fopen(const char* path, const char* mode) {
  return GPUSCOPE_TIMED(fopen, path, mode);
}

__attribute__((visibility("default"))) FILE* fopen64(const char* path, const char* mode) {
  return GPUSCOPE_TIMED(fopen64, path, mode);
}

__attribute__((visibility("default"))) int fclose(FILE* file) { return GPUSCOPE_TIMED(fclose, file); }

__attribute__((visibility("default"))) size_t fread(void* buffer, size_t size, size_t count, FILE* file) {
  return GPUSCOPE_TIMED(fread, buffer, size, count, file);
}

__attribute__((visibility("default"))) size_t fwrite(const void* buffer, size_t size, size_t count, FILE* file) {
  return GPUSCOPE_TIMED(fwrite, buffer, size, count, file);
}

__attribute__((visibility("default"))) int fflush(FILE* file) { return GPUSCOPE_TIMED(fflush, file); }

__attribute__((visibility("default"))) char* fgets(char* buffer, int size, FILE* file) {
  return GPUSCOPE_TIMED(fgets, buffer, size, file);
}

__attribute__((visibility("default"))) int getc(FILE* file) { return GPUSCOPE_TIMED(getc, file); }

__attribute__((visibility("default"))) ssize_t recv(int fd, void* buffer, size_t bytes, int flags) {
  return GPUSCOPE_TIMED(recv, fd, buffer, bytes, flags);
}

__attribute__((visibility("default"))) ssize_t recvfrom(int fd, void* buffer, size_t bytes, int flags,
                                                        struct sockaddr* from, socklen_t* fromLength) {
  return GPUSCOPE_TIMED(recvfrom, fd, buffer, bytes, flags, from, fromLength);
}

__attribute__((visibility("default"))) ssize_t recvmsg(int fd, struct msghdr* message, int flags) {
  return GPUSCOPE_TIMED(recvmsg, fd, message, flags);
}

__attribute__((visibility("default"))) ssize_t send(int fd, const void* buffer, size_t bytes, int flags) {
  return GPUSCOPE_TIMED(send, fd, buffer, bytes, flags);
}

__attribute__((visibility("default"))) ssize_t sendto(int fd, const void* buffer, size_t bytes, int flags,
                                                      const struct sockaddr* to, socklen_t toLength) {
  return GPUSCOPE_TIMED(sendto, fd, buffer, bytes, flags, to, toLength);
}

__attribute__((visibility("default"))) ssize_t sendmsg(int fd, const struct msghdr* message, int flags) {
  return GPUSCOPE_TIMED(sendmsg, fd, message, flags);
}

__attribute__((visibility("default"))) int connect(int fd, const struct sockaddr* address, socklen_t length) {
  return GPUSCOPE_TIMED(connect, fd, address, length);
}

__attribute__((visibility("default"))) int accept(int fd, struct sockaddr* address, socklen_t* length) {
  return GPUSCOPE_TIMED(accept, fd, address, length);
}

__attribute__((visibility("default"))) int accept4(int fd, struct sockaddr* address, socklen_t* length, int flags) {
  return GPUSCOPE_TIMED(accept4, fd, address, length, flags);
}

__attribute__((visibility("default"))) int socket(int domain, int type, int protocol) noexcept {
  return GPUSCOPE_TIMED(socket, domain, type, protocol);
}

__attribute__((visibility("default"))) int bind(int fd, const struct sockaddr* address, socklen_t length) noexcept {
  return GPUSCOPE_TIMED(bind, fd, address, length);
}

__attribute__((visibility("default"))) int listen(int fd, int backlog) noexcept {
  return GPUSCOPE_TIMED(listen, fd, backlog);
}

__attribute__((visibility("default"))) int ioctl(int fd, unsigned long request, ...) noexcept {
  va_list arguments;
  va_start(arguments, request);
  void* argument = va_arg(arguments, void*);
  va_end(arguments);
  return timed(
      OsrtFunction::ioctl, __builtin_return_address(0),
      nextDefinition<int (*)(int, unsigned long, void*)>(g_next[static_cast<size_t>(OsrtFunction::ioctl)], "ioctl"),
      [&](auto next) { return next(fd, request, argument); });
}

__attribute__((visibility("default"))) int fsync(int fd) { return GPUSCOPE_TIMED(fsync, fd); }
__attribute__((visibility("default"))) int fdatasync(int fd) { return GPUSCOPE_TIMED(fdatasync, fd); }

__attribute__((visibility("default"))) void* mmap(void* address, size_t length, int protection, int flags, int fd,
                                                  off_t offset) noexcept {
  return GPUSCOPE_TIMED(mmap, address, length, protection, flags, fd, offset);
}

__attribute__((visibility("default"))) void* mmap64(void* address, size_t length, int protection, int flags, int fd,
                                                    off64_t offset) noexcept {
  return GPUSCOPE_TIMED(mmap64, address, length, protection, flags, fd, offset);
}

__attribute__((visibility("default"))) int munmap(void* address, size_t length) noexcept {
  return GPUSCOPE_TIMED(munmap, address, length);
}

__attribute__((visibility("default"))) int msync(void* address, size_t length, int flags) {
  return GPUSCOPE_TIMED(msync, address, length, flags);
}

__attribute__((visibility("default"))) int pipe(int fds[2]) noexcept { return GPUSCOPE_TIMED(pipe, fds); }
__attribute__((visibility("default"))) int pipe2(int fds[2], int flags) noexcept {
  return GPUSCOPE_TIMED(pipe2, fds, flags);
}
__attribute__((visibility("default"))) int dup(int fd) noexcept { return GPUSCOPE_TIMED(dup, fd); }
__attribute__((visibility("default"))) int dup2(int fd, int target) noexcept {
  return GPUSCOPE_TIMED(dup2, fd, target);
}
__attribute__((visibility("default"))) int flock(int fd, int operation) noexcept {
  return GPUSCOPE_TIMED(flock, fd, operation);
}
__attribute__((visibility("default"))) int lockf(int fd, int command, off_t length) {
  return GPUSCOPE_TIMED(lockf, fd, command, length);
}

// ---- processes ----

__attribute__((visibility("default"))) int sigaction(int signal, const struct sigaction* action,
                                                     struct sigaction* previous) noexcept {
  return GPUSCOPE_TIMED(sigaction, signal, action, previous);
}

__attribute__((visibility("default"))) pid_t waitpid(pid_t pid, int* status, int options) {
  return GPUSCOPE_TIMED(waitpid, pid, status, options);
}

__attribute__((visibility("default"))) pid_t wait(int* status) { return GPUSCOPE_TIMED(wait, status); }

__attribute__((visibility("default"))) int waitid(idtype_t type, id_t id, siginfo_t* info, int options) {
  return GPUSCOPE_TIMED(waitid, type, id, info, options);
}

// _exit and _Exit run no atexit handler, so the CUDA injection's last flush would not happen
// (Python multiprocessing's fork children end with os._exit and kept 3-4 of 82 kernels): let it
// write what CUPTI holds, then end the process as _exit does.
__attribute__((visibility("default"))) void _exit(int status) {
  gpuscope::inject::runAbruptExitHandler("_exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

__attribute__((visibility("default"))) void _Exit(int status) noexcept {
  gpuscope::inject::runAbruptExitHandler("_Exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

// The child is set up by the pthread_atfork handler (a ring file of its own); only the parent records.
__attribute__((visibility("default"))) pid_t fork() noexcept {
  gpuscope::inject::ProcessRecorder* recorder = osrtRecorder();
  auto next = GPUSCOPE_NEXT(fork);
  if (!recorder) return next();
  int64_t start = gpuscope::transport::sessionClockNs();
  pid_t child = next();
  if (child == 0) return 0;
  gpuscope::inject::recordCall(recorder, OsrtFunction::fork, start, gpuscope::transport::sessionClockNs(), child);
  return child;
}

// exec returns only when it failed; that call is recorded (in the process that made it, not in a
// vfork child, which shares the parent's memory).
__attribute__((visibility("default"))) int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  FollowedEnvironment environment(envp);
  auto next = GPUSCOPE_NEXT(execve);
  int64_t start = gpuscope::transport::sessionClockNs();
  int result = next(path, argv, environment.entries);
  if (gpuscope::inject::ProcessRecorder* recorder = osrtRecorder(); recorder && gpuscope::inject::isOwnPid()) {
    gpuscope::inject::recordCall(recorder, OsrtFunction::execve, start, gpuscope::transport::sessionClockNs(), result);
  }
  return result;
}

__attribute__((visibility("default"))) int execv(const char* path, char* const argv[]) noexcept {
  FollowedEnvironment environment(environ);
  auto next = GPUSCOPE_NEXT(execve);
  int64_t start = gpuscope::transport::sessionClockNs();
  int result = next(path, argv, environment.entries);
  if (gpuscope::inject::ProcessRecorder* recorder = osrtRecorder(); recorder && gpuscope::inject::isOwnPid()) {
    gpuscope::inject::recordCall(recorder, OsrtFunction::execv, start, gpuscope::transport::sessionClockNs(), result);
  }
  return result;
}

__attribute__((visibility("default"))) int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  FollowedEnvironment environment(envp);
  auto next = GPUSCOPE_NEXT(execvpe);
  int64_t start = gpuscope::transport::sessionClockNs();
  int result = next(file, argv, environment.entries);
  if (gpuscope::inject::ProcessRecorder* recorder = osrtRecorder(); recorder && gpuscope::inject::isOwnPid()) {
    gpuscope::inject::recordCall(recorder, OsrtFunction::execvpe, start, gpuscope::transport::sessionClockNs(), result);
  }
  return result;
}

__attribute__((visibility("default"))) int execvp(const char* file, char* const argv[]) noexcept {
  FollowedEnvironment environment(environ);
  auto next = GPUSCOPE_NEXT(execvpe);
  int64_t start = gpuscope::transport::sessionClockNs();
  int result = next(file, argv, environment.entries);
  if (gpuscope::inject::ProcessRecorder* recorder = osrtRecorder(); recorder && gpuscope::inject::isOwnPid()) {
    gpuscope::inject::recordCall(recorder, OsrtFunction::execvp, start, gpuscope::transport::sessionClockNs(), result);
  }
  return result;
}

__attribute__((visibility("default"))) int posix_spawn(pid_t* pid, const char* path,
                                                       const posix_spawn_file_actions_t* actions,
                                                       const posix_spawnattr_t* attributes, char* const argv[],
                                                       char* const envp[]) {
  FollowedEnvironment environment(envp);
  return nextDefinition<decltype(&::posix_spawn)>(g_next[gpuscope::inject::kPosixSpawnSlot], "posix_spawn")(
      pid, path, actions, attributes, argv, environment.entries);
}

__attribute__((visibility("default"))) int posix_spawnp(pid_t* pid, const char* file,
                                                        const posix_spawn_file_actions_t* actions,
                                                        const posix_spawnattr_t* attributes, char* const argv[],
                                                        char* const envp[]) {
  FollowedEnvironment environment(envp);
  return nextDefinition<decltype(&::posix_spawnp)>(g_next[gpuscope::inject::kPosixSpawnpSlot], "posix_spawnp")(
      pid, file, actions, attributes, argv, environment.entries);
}

__attribute__((visibility("default"))) int system(const char* command) { return GPUSCOPE_TIMED(system, command); }

__attribute__((visibility("default"))) FILE* popen(const char* command, const char* mode) {
  return GPUSCOPE_TIMED(popen, command, mode);
}

__attribute__((visibility("default"))) int pclose(FILE* stream) { return GPUSCOPE_TIMED(pclose, stream); }

}  // extern "C"
