// How many heap allocations a program makes, on its main thread and on its other threads: an LD_PRELOAD
// library that counts malloc, calloc, realloc, free and the aligned allocators and passes each to glibc's
// own (__libc_*), and prints its process's counts at exit to stderr as
// "allocs PROGRAM FUNCTION MAIN_THREAD OTHER_THREADS". Used by tests/gpu/alloc_probe.sh to find whether
// CUPTI allocates per kernel launch on the program's thread (the launch loop's user time under the CUPTI
// floor is 20 ms above nsys's, issue 10), and so whether an allocator could explain nsys's lower cost.
//
// Build: gcc -O2 -fPIC -shared tests/gpu/workloads/count_allocs.c -o libcount_allocs.so
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "program_name.h"
extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* old, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void* pointer);

enum { kMalloc, kCalloc, kRealloc, kAligned, kFree, kCount };
static const char* const kNames[kCount] = {"malloc", "calloc", "realloc", "aligned", "free"};
static atomic_ulong g_counts[2][kCount];

// 0 on the process's main thread, 1 elsewhere; decided once per thread (gettid is a system call).
static __thread int t_place __attribute__((tls_model("initial-exec"))) = -1;

static void count(int function) {
  if (t_place < 0) t_place = syscall(SYS_gettid) == getpid() ? 0 : 1;
  atomic_fetch_add_explicit(&g_counts[t_place][function], 1, memory_order_relaxed);
}

void* malloc(size_t size) {
  count(kMalloc);
  return __libc_malloc(size);
}

void* calloc(size_t items, size_t size) {
  count(kCalloc);
  return __libc_calloc(items, size);
}

void* realloc(void* old, size_t size) {
  count(kRealloc);
  return __libc_realloc(old, size);
}

void free(void* pointer) {
  if (pointer) count(kFree);
  __libc_free(pointer);
}

void* memalign(size_t alignment, size_t size) {
  count(kAligned);
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) {
  count(kAligned);
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** out, size_t alignment, size_t size) {
  count(kAligned);
  void* pointer = __libc_memalign(alignment, size);
  if (!pointer) return ENOMEM;
  *out = pointer;
  return 0;
}

__attribute__((destructor)) static void report(void) {
  char name[64];
  programName(name, sizeof name);
  for (int f = 0; f < kCount; ++f)
    fprintf(stderr, "allocs %s %s %lu %lu\n", name, kNames[f], atomic_load(&g_counts[0][f]),
            atomic_load(&g_counts[1][f]));
}
