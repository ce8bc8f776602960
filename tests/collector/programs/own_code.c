/* gpuscope's own code (what the CUDA injection names with addOwnCode: CUPTI's library and its own)
 * is left out of the OS-runtime trace, with the threads it starts. This program plays that part for
 * the recorder test. Before it names its own executable as gpuscope's code: a thread that runs
 * usleep(20 ms) and a 20 ms usleep on the main thread (both recorded, with the pthread_create).
 * After: a 20 ms usleep, and a thread that runs usleep(20 ms) (none of the three recorded: the
 * calls come from "gpuscope's" code, and the thread it started is one of gpuscope's).
 * Usage: own_code (exits 3 when it is not recorded: there is no addOwnCode to find). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

typedef void (*AddOwnCode)(uintptr_t begin, uintptr_t end);
typedef void* (*Start)(void*);

static int addExecutable(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  if (info->dlpi_name[0] != '\0') return 0; /* the executable comes first, with an empty name */
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)* segment = &info->dlpi_phdr[i];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    uintptr_t begin = info->dlpi_addr + segment->p_vaddr;
    ((AddOwnCode)data)(begin, begin + segment->p_memsz);
  }
  return 1;
}

/* A thread whose start routine is usleep itself: its call comes from libc's thread start, not from
 * this executable (x86-64 passes the argument in the register usleep reads). */
static void sleepingThread(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, (Start)(void (*)(void))usleep, (void*)(uintptr_t)20000);
  pthread_join(thread, NULL);
}

int main(void) {
  AddOwnCode addOwnCode = (AddOwnCode)dlsym(RTLD_DEFAULT, "_ZN8gpuscope6inject10addOwnCodeEmm");
  if (!addOwnCode) return 3;
  sleepingThread();
  usleep(20000);
  dl_iterate_phdr(addExecutable, (void*)addOwnCode);
  usleep(20000);
  sleepingThread();
  return 0;
}
