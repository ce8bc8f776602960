// The launch-heavy program of issue 10: LAUNCHES launches of a tiny kernel, an NVTX range around
// every 1,000 of them, and a synchronous cudaMemcpy at the end of each range. Records lost at a ring
// wrap show as missing kernels and cudaLaunchKernel calls.
// Usage: lb [LAUNCHES]
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

__global__ void tiny(float* out, int n) {
  if (threadIdx.x < n) out[threadIdx.x] += 1.0f;
}

int main(int argc, char** argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 50000;
  float* device = nullptr;
  if (cudaMalloc(&device, 32 * sizeof(float)) != cudaSuccess) return 1;
  float host[32];
  for (int i = 0; i < launches; i += 1000) {
    nvtxRangePushA("block");
    for (int j = i; j < i + 1000 && j < launches; ++j) tiny<<<1, 32>>>(device, 32);
    cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
    nvtxRangePop();
  }
  std::printf("value %.0f\n", host[0]);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 2;
}
