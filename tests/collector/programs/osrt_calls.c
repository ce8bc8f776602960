/* Calls, once each, the OS-runtime functions that decide whether gpuscope's list follows nsys's:
 * some nsys records (the stat family, fcntl, pipe2, sigaction, pthread_mutex_trylock, getc,
 * posix_fallocate, pthread_rwlock_* when they wait) and one it does not (sem_post).
 * Usage: osrt_calls SCRATCHFILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  struct stat info;
  if (stat(argv[0], &info) != 0 || lstat(argv[0], &info) != 0) return 1;
  int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || fstat(fd, &info) != 0 || fstatat(AT_FDCWD, argv[1], &info, 0) != 0) return 1;
  if (fcntl(fd, F_GETFL) < 0 || posix_fallocate(fd, 0, 4096) != 0) return 1;
  close(fd);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return 1;
  struct sigaction action = {0};
  action.sa_handler = SIG_IGN;
  if (sigaction(SIGUSR1, &action, NULL) != 0) return 1;
  FILE* file = fopen(argv[0], "r");
  if (!file || getc(file) == EOF) return 1;
  fclose(file);
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  if (pthread_mutex_trylock(&mutex) != 0) return 1;
  pthread_mutex_unlock(&mutex);
  pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
  pthread_rwlock_rdlock(&lock);
  pthread_rwlock_unlock(&lock);
  pthread_rwlock_wrlock(&lock);
  pthread_rwlock_unlock(&lock);
  sem_t semaphore;
  sem_init(&semaphore, 0, 0);
  sem_post(&semaphore);
  sem_wait(&semaphore);
  return 0;
}
