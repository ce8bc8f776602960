// Kernels whose names the CUDA toolkit's demangler and GCC's spell differently: pointer
// parameters, integer template arguments, an anonymous namespace, a struct argument.
#include <cstdio>

namespace {
__global__ void hidden(float* out) { out[threadIdx.x] = 1.0f; }
}  // namespace

template <int N, typename T>
__global__ void templated(T* out, int n) {
  if (threadIdx.x < n) out[threadIdx.x] = static_cast<T>(N);
}

struct Pair {
  float a, b;
};
__global__ void byValue(Pair pair, float* out) { out[threadIdx.x] = pair.a + pair.b; }

namespace outer::inner {
__global__ void nested(const double* in, double* out) { out[threadIdx.x] = in[threadIdx.x]; }
}  // namespace outer::inner

int main() {
  float* f = nullptr;
  double* d = nullptr;
  cudaMalloc(&f, 32 * sizeof(float));
  cudaMalloc(&d, 64 * sizeof(double));
  hidden<<<1, 32>>>(f);
  templated<4, float><<<1, 32>>>(f, 32);
  templated<-1, double><<<1, 32>>>(d, 32);
  byValue<<<1, 32>>>(Pair{1.0f, 2.0f}, f);
  outer::inner::nested<<<1, 32>>>(d, d + 32);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
