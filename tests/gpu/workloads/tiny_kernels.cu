// Issue 26's launch-bound program: after the context and module start-up and a warm-up range, 10 NVTX
// "step N" ranges of 1,000 launches each of a kernel that does almost nothing, and one synchronize per
// step. The host's launch calls are the limit: the verdict should say cuda_api.
// Usage: tiny_kernels [STEPS]
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <string>

__global__ void tiny(float* out) {
  if (threadIdx.x == 0) out[blockIdx.x] += 1.0f;
}

int main(int argc, char** argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 10;
  float* device = nullptr;
  if (cudaMalloc(&device, 1024 * sizeof(float)) != cudaSuccess) return 1;
  nvtxRangePushA("warmup");
  for (int i = 0; i < 100; ++i) tiny<<<1, 32>>>(device);
  cudaDeviceSynchronize();
  nvtxRangePop();
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA(("step " + std::to_string(step)).c_str());
    for (int i = 0; i < 1000; ++i) tiny<<<1, 32>>>(device);
    cudaStreamSynchronize(nullptr);
    nvtxRangePop();
  }
  float first = 0;
  cudaMemcpy(&first, device, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("tiny_kernels: %d steps, value %.0f\n", steps, first);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 2;
}
