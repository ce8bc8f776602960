#pragma once
// The OS-runtime functions the interposer records, by id (the aux field of an OsRuntime record).
//
// This is the one list of them: libgpuscope_inject.so defines a wrapper for each name here and for
// no other OS-runtime function (tests/collector/osrt_list_test.cpp checks both ways), and the
// daemon names OSRT_API rows from it. It follows what Nsight Systems' OS-runtime trace records by
// default (`nsys profile -t osrt`, threshold 1 us), from these sources:
//  - the function names in nsys's osrt_sum of two recordings (tests/fixtures/nsys/
//    loader2_stats_osrt_sum.csv, a PyTorch DataLoader with workers, and transpose_stats_osrt_sum.csv,
//    a CUDA program): every name there is here, among them the stat family (stat64, lstat64,
//    fstat64), fcntl/fcntl64, pipe2, sigaction, pthread_mutex_trylock, getc, sem_wait,
//    sem_timedwait, pthread_join and dup;
//  - issue 10's comparison of per-name counts with nsys on the same programs: nsys also records
//    posix_fallocate64 and, where they wait, pthread_rwlock_rdlock/wrlock (tests/gpu/rec_check.sh on
//    tests/gpu/workloads/lb.cu: 3 and 3), and it recorded no sem_post (GPUSCOPE_OSRT_LEFT_OUT);
//  - nsys's user guide: blocking and I/O calls of the C runtime (glibc), recorded when they last
//    the threshold or longer. The remaining names (sleeps, select/epoll, socket and file I/O,
//    wait/exec/system) are such calls that the two recordings did not make.
// The names are glibc's symbols, as nsys writes them (open64 and stat64 are separate symbols).
// The CUDA API calls nsys leaves out are listed in collector/cuda/query_api_filter.cpp.
//
#include <cstdint>
#include <string_view>

namespace gpuscope::transport {

// X(identifier): the symbol name as written in OSRT_API.
// One function a line: clang-format 14 does not settle on a layout for this macro.
// clang-format off
#define GPUSCOPE_OSRT_FUNCTIONS(X) \
  X(pthread_mutex_lock) \
  X(pthread_mutex_trylock) \
  X(pthread_mutex_timedlock) \
  X(pthread_mutex_clocklock) \
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
  X(stat) \
  X(stat64) \
  X(lstat) \
  X(lstat64) \
  X(fstat) \
  X(fstat64) \
  X(fstatat) \
  X(fstatat64) \
  X(fcntl) \
  X(fcntl64) \
  X(posix_fallocate) \
  X(posix_fallocate64) \
  X(fopen) \
  X(fopen64) \
  X(fclose) \
  X(fread) \
  X(fwrite) \
  X(fflush) \
  X(fgets) \
  X(getc) \
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
  X(sigaction) \
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
  X(lockf) \
  X(pthread_rwlock_rdlock) \
  X(pthread_rwlock_wrlock) \
  X(pthread_rwlock_timedrdlock) \
  X(pthread_rwlock_timedwrlock)

// Functions gpuscope recorded before and nsys's default does not (issue 10): not interposed.
#define GPUSCOPE_OSRT_LEFT_OUT(X) \
  X(sem_post)
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
