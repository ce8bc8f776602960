// Overhead workload: 50,000 launches of an empty kernel on one stream. Prints the time the loop and
// the final synchronization took, on the program's own clock, as "loop_ns N".
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void tiny(int* out) {
  if (out && threadIdx.x == 1024) *out = 1;
}

int main(int argc, char** argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 50000;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess) return 1;
  tiny<<<1, 32, 0, stream>>>(nullptr);  // warm up: module load, context
  cudaStreamSynchronize(stream);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i) tiny<<<1, 32, 0, stream>>>(nullptr);
  if (cudaStreamSynchronize(stream) != cudaSuccess) return 2;
  auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
  std::printf("loop_ns %lld\n", static_cast<long long>(elapsed.count()));
  return 0;
}
