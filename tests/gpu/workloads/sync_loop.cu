// Issue 14's synchronization-bound program: a short kernel, then cudaDeviceSynchronize and a 4-byte
// synchronous copy of its result (what `loss.item()` does each step), 5,000 times, with nothing else on the
// host between them: the host spends its time waiting in synchronizing calls and the GPU sits idle for the
// round trip of each. NVTX ranges mark steps of 500.
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
  float result = 0.0f;
  for (int step = 0; step < 10; ++step) {
    std::snprintf(name, sizeof name, "step %d", step);
    nvtxRangePushA(name);
    for (int i = 0; i < 500; ++i) {
      spin<<<1, 256>>>(data, 64);
      cudaDeviceSynchronize();
      cudaMemcpy(&result, data, sizeof result, cudaMemcpyDeviceToHost);
    }
    nvtxRangePop();
  }
  cudaFree(data);
  std::printf("sync_loop: done (%g)\n", result);
  return 0;
}
