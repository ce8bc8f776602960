// Issue 14's synchronization-bound program: a short kernel, then cudaDeviceSynchronize, 20,000 times, with
// nothing else on the host between them, so the host spends its time in the synchronize call and the GPU
// sits idle for the round trip of each one. NVTX ranges mark steps of 1,000.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>

__global__ void spin(float* data, int iterations) {
  float value = data[threadIdx.x];
  for (int i = 0; i < iterations; ++i) value = value * 0.999f + 0.001f;
  data[threadIdx.x] = value;
}

int main() {
  float* data = nullptr;
  cudaMalloc(&data, 256 * sizeof(float));
  cudaMemset(data, 0, 256 * sizeof(float));
  char name[32];
  for (int step = 0; step < 20; ++step) {
    std::snprintf(name, sizeof name, "step %d", step);
    nvtxRangePushA(name);
    for (int i = 0; i < 1000; ++i) {
      spin<<<1, 256>>>(data, 64);
      cudaDeviceSynchronize();
    }
    nvtxRangePop();
  }
  cudaFree(data);
  std::printf("sync_loop: done\n");
  return 0;
}
