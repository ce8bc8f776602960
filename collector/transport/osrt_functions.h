#pragma once
// The OS-runtime functions the interposer records, by id (the aux field of an OsRuntime record).
#include <cstdint>
#include <string_view>

namespace gpuscope::transport {

// X(identifier, "symbol name as written in OSRT_API")
// One function a line: clang-format 14 does not settle on a layout for this macro.
// clang-format off
#define GPUSCOPE_OSRT_FUNCTIONS(X) \
  X(pthread_mutex_lock) \
  X(pthread_mutex_timedlock) \
  X(pthread_mutex_clocklock) \
  X(pthread_rwlock_rdlock) \
  X(pthread_rwlock_wrlock) \
  X(pthread_rwlock_timedrdlock) \
  X(pthread_rwlock_timedwrlock) \
  X(pthread_cond_wait) \
  X(pthread_cond_timedwait) \
  X(pthread_cond_clockwait) \
  X(pthread_cond_signal) \
  X(pthread_cond_broadcast) \
  X(pthread_join) \
  X(pthread_barrier_wait) \
  X(pthread_create) \
  X(sem_wait) \
  X(sem_timedwait) \
  X(sem_clockwait) \
  X(sem_post) \
  X(sleep) \
  X(usleep) \
  X(nanosleep) \
  X(clock_nanosleep) \
  X(poll) \
  X(ppoll) \
  X(select) \
  X(pselect) \
  X(epoll_wait) \
  X(epoll_pwait) \
  X(read) \
  X(write) \
  X(pread) \
  X(pread64) \
  X(pwrite) \
  X(pwrite64) \
  X(readv) \
  X(writev) \
  X(open) \
  X(open64) \
  X(openat) \
  X(openat64) \
  X(creat) \
  X(close) \
  X(fopen) \
  X(fopen64) \
  X(fclose) \
  X(fread) \
  X(fwrite) \
  X(fflush) \
  X(fgets) \
  X(recv) \
  X(recvfrom) \
  X(recvmsg) \
  X(send) \
  X(sendto) \
  X(sendmsg) \
  X(connect) \
  X(accept) \
  X(accept4) \
  X(waitpid) \
  X(wait) \
  X(waitid) \
  X(fork) \
  X(execve) \
  X(execv) \
  X(execvp) \
  X(execvpe) \
  X(system) \
  X(popen) \
  X(pclose) \
  X(ioctl) \
  X(fsync) \
  X(fdatasync) \
  X(mmap) \
  X(mmap64) \
  X(munmap) \
  X(pipe) \
  X(pipe2) \
  X(dup) \
  X(dup2) \
  X(socket) \
  X(bind) \
  X(listen) \
  X(msync) \
  X(flock) \
  X(lockf)
// clang-format on

enum class OsrtFunction : uint16_t {
#define GPUSCOPE_OSRT_ENUM(name) name,
  GPUSCOPE_OSRT_FUNCTIONS(GPUSCOPE_OSRT_ENUM)
#undef GPUSCOPE_OSRT_ENUM
      Count
};

// The function's name, or an empty view for an id out of range.
inline std::string_view osrtFunctionName(uint16_t id) {
  static constexpr std::string_view kNames[] = {
#define GPUSCOPE_OSRT_NAME(name) #name,
      GPUSCOPE_OSRT_FUNCTIONS(GPUSCOPE_OSRT_NAME)
#undef GPUSCOPE_OSRT_NAME
  };
  return id < static_cast<uint16_t>(OsrtFunction::Count) ? kNames[id] : std::string_view{};
}

}  // namespace gpuscope::transport
