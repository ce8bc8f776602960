// Issue 26's transfer-bound program: each of 20 NVTX "step N" ranges sets 64 MiB of managed memory and
// 64 MiB of pinned host memory with cudaMemset (synchronous memsets that nsys's cuda_memset_sync rule
// reports), copies 64 MiB from pageable memory to the device and back with cudaMemcpy, and runs one
// small kernel. The GPU's busy time is copies and memsets, not kernels: the verdict should say transfer.
// Usage: transfer_loop [STEPS]
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

__global__ void touch(float* data, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) data[i] *= 0.5f;
}

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t status = (call);                                           \
    if (status != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status)); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  const size_t bytes = size_t(64) << 20;
  const size_t floats = bytes / sizeof(float);
  float *managed = nullptr, *pinned = nullptr, *device = nullptr;
  CHECK(cudaMallocManaged(&managed, bytes));
  CHECK(cudaMallocHost(&pinned, bytes));
  CHECK(cudaMalloc(&device, bytes));
  std::vector<float> pageable(floats, 1.0f);
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA(("step " + std::to_string(step)).c_str());
    CHECK(cudaMemset(managed, step & 0xff, bytes));
    CHECK(cudaMemset(pinned, step & 0xff, bytes));
    CHECK(cudaMemcpy(device, pageable.data(), bytes, cudaMemcpyHostToDevice));
    touch<<<256, 256>>>(device, 65536);
    CHECK(cudaMemcpy(pageable.data(), device, bytes, cudaMemcpyDeviceToHost));
    nvtxRangePop();
  }
  std::printf("transfer_loop: %d steps, value %.3f\n", steps, pageable[0]);
  CHECK(cudaFree(device));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(managed));
  return 0;
}
