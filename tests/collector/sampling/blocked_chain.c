// Blocks in nanosleep at a known depth: main -> wait_outer -> wait_inner -> nanosleep, 20 times for
// 2 ms (past the default --osrt-backtrace-threshold of 80 us) and 20 times for 20 us (under it). Built
// without frame pointers, as most distribution code is, so only an unwinder that reads .eh_frame gets
// from nanosleep back to main.
#include <stdio.h>
#include <time.h>

volatile int steps;

__attribute__((noinline)) void wait_inner(long nanoseconds) {
  struct timespec pause = {0, nanoseconds};
  nanosleep(&pause, NULL);
  ++steps;  // keeps the call from being a tail call, so wait_inner's frame stays on the stack
}

__attribute__((noinline)) void wait_outer(long nanoseconds) {
  wait_inner(nanoseconds);
  ++steps;
}

int main(void) {
  for (int i = 0; i < 20; ++i) {
    wait_outer(2 * 1000 * 1000);
    wait_outer(20 * 1000);
  }
  printf("steps %d\n", steps);
  return 0;
}
