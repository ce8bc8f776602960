// The running process's name as /proc/self/comm gives it ("?" where it cannot be read): the LD_PRELOAD
// counters and samplers of tests/gpu (count_calls.c, count_allocs.c, pc_sampler.c) tag their exit reports
// with it, so that a script can keep the target's lines and drop those of the tools that launched it.
#pragma once
#include <stdio.h>
#include <string.h>

static inline void programName(char* name, size_t size) {
  snprintf(name, size, "?");
  FILE* comm = fopen("/proc/self/comm", "r");
  if (!comm) return;
  if (fgets(name, (int)size, comm)) name[strcspn(name, "\n")] = 0;
  fclose(comm);
}
