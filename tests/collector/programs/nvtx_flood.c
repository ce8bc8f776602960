/* The NVTX flood: THREADS threads each doing PAIRS nvtxRangePushA/nvtxRangePop pairs as fast as they
 * can, with messages of 0 to 300 characters. The recorder must keep every range (back-pressure).
 * With PAUSE_US, each thread sleeps that long after each pair: a steady stream instead.
 * Usage: nvtx_flood THREADS PAIRS [PAUSE_US] */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long g_pairs;
static long g_pauseUs;

static void* flood(void* arg) {
  long thread = (long)arg;
  char message[301];
  for (long i = 0; i < g_pairs; ++i) {
    size_t length = (size_t)((i * 7 + thread * 13) % 301);
    memset(message, 'a' + (int)(i % 26), length);
    message[length] = '\0';
    nvtxRangePushA(message);
    nvtxRangePop();
    if (g_pauseUs > 0) {
      struct timespec pause = {g_pauseUs / 1000000, (g_pauseUs % 1000000) * 1000};
      nanosleep(&pause, NULL);
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: nvtx_flood THREADS PAIRS [PAUSE_US]\n");
    return 2;
  }
  long threads = strtol(argv[1], NULL, 10);
  g_pairs = strtol(argv[2], NULL, 10);
  g_pauseUs = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
  if (threads < 1 || threads > 64 || g_pairs < 0) return 2;
  pthread_t ids[64];
  for (long t = 0; t < threads; ++t) pthread_create(&ids[t], NULL, flood, (void*)t);
  for (long t = 0; t < threads; ++t) pthread_join(ids[t], NULL);
  return 0;
}
