// Issue 10's crash check: LAUNCHES launches of a tiny kernel, a synchronize, then a segfault (or,
// with "abort", abort()). Every kernel completed before the crash should be in the trace.
// Usage: crash_after [LAUNCHES] [segv|abort]
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void tiny(float* out, int n) {
  if (threadIdx.x < n) out[threadIdx.x] += 1.0f;
}

int main(int argc, char** argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 1000;
  bool abortInstead = argc > 2 && std::strcmp(argv[2], "abort") == 0;
  float* device = nullptr;
  if (cudaMalloc(&device, 32 * sizeof(float)) != cudaSuccess) return 1;
  for (int i = 0; i < launches; ++i) tiny<<<1, 32>>>(device, 32);
  cudaDeviceSynchronize();
  std::fprintf(stderr, "crashing after %d launches\n", launches);
  if (abortInstead) std::abort();
  volatile int* nowhere = nullptr;
  *nowhere = 1;
  return 0;
}
