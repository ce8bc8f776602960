/* Which library defines the pthread_mutex_lock and pthread_rwlock_rdlock the program calls, and which
 * of gpuscope's libraries the process has loaded: the recorder test checks that `record` without the
 * OS-runtime trace preloads the library without the lock wrappers, and one recorder only.
 * Usage: lock_owner OUT, which gets the lines "lock PATH", "rdlock PATH" and "loaded PATH". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

static void writeOwner(FILE* out, const char* label, const char* symbol) {
  Dl_info info;
  void* function = dlsym(RTLD_DEFAULT, symbol);
  fprintf(out, "%s %s\n", label, function && dladdr(function, &info) && info.dli_fname ? info.dli_fname : "?");
}

static int writeGpuscopeObject(struct dl_phdr_info* info, size_t size, void* out) {
  (void)size;
  if (strstr(info->dlpi_name, "gpuscope")) fprintf((FILE*)out, "loaded %s\n", info->dlpi_name);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  FILE* out = fopen(argv[1], "w");
  if (!out) return 1;
  writeOwner(out, "lock", "pthread_mutex_lock");
  writeOwner(out, "rdlock", "pthread_rwlock_rdlock");
  dl_iterate_phdr(writeGpuscopeObject, out);
  return fclose(out) == 0 ? 0 : 1;
}
