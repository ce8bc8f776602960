// Compute roofs: FMA throughput in FP64, FP32 and FP16 (half2), each thread running several independent
// FMA chains so that the pipes, not the chains' latency, are the limit.
#include <cuda_fp16.h>

#include <algorithm>

#include "collector/peaks/peak_kernels.cuh"
#include "collector/peaks/peak_timing.cuh"

namespace gpuscope::peaks {
namespace {

constexpr int kBlock = 256;
constexpr int kChains = 8;  // independent FMAs in flight per thread: with 16 warps a scheduler, ample

__device__ double fmaOf(double x, double a, double b) { return fma(x, a, b); }
__device__ float fmaOf(float x, float a, float b) { return fmaf(x, a, b); }
__device__ __half2 fmaOf(__half2 x, __half2 a, __half2 b) { return __hfma2(x, a, b); }

template <typename T>
__device__ T fromFloat(float value) {
  if constexpr (std::is_same_v<T, __half2>) {
    return __float2half2_rn(value);
  } else {
    return static_cast<T>(value);
  }
}

template <typename T>
__device__ bool isNever(T value, float never) {
  if constexpr (std::is_same_v<T, __half2>) {
    return __low2float(value) == never;
  } else {
    return static_cast<float>(value) == never;
  }
}

// x = x * a + b, ITERATIONS times on each of kChains chains. The chains start apart (the compiler would
// merge identical ones), and with a < 1 they settle near b / (1 - a): no overflow, no denormals.
template <typename T>
__global__ void fmaKernel(int iterations, float a, float b, float never, float* sink) {
  T x[kChains];
  T ta = fromFloat<T>(a), tb = fromFloat<T>(b);
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = fromFloat<T>(static_cast<float>(threadIdx.x + k) * 1e-3f);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) x[k] = fmaOf(x[k], ta, tb);
  }
  T sum = x[0];
#pragma unroll
  for (int k = 1; k < kChains; ++k) sum = sum + x[k];
  if (isNever(sum, never)) *sink = 1;
}

template <typename T>
Peak measureFma(const GpuShape& gpu, const char* kind, double flopsPerFma, const char* instruction) {
  int blocks = gpu.smCount * std::max(1, gpu.maxThreadsPerSm / kBlock);
  float* sink = nullptr;
  check(cudaMalloc(&sink, sizeof(float)), "cudaMalloc");
  auto run = [&](long long iterations) {
    fmaKernel<T><<<blocks, kBlock>>>(static_cast<int>(iterations), 0.999f, 1e-3f, -1.0f, sink);
  };
  long long iterations = calibratedCount(run, 256, 1 << 28);
  double seconds = bestSeconds([&] { run(iterations); });
  cudaFree(sink);
  double flops = static_cast<double>(blocks) * kBlock * static_cast<double>(iterations) * kChains * flopsPerFma;
  return {kind, flops / seconds,
          std::string(instruction) + " chains, " + std::to_string(kChains) + " independent per thread, " +
              std::to_string(blocks) + "x" + std::to_string(kBlock) + " threads, " + std::to_string(iterations) +
              " iterations, best of " + std::to_string(kRepeats) + " (CUDA events)"};
}

}  // namespace

Peak measureFp64(const GpuShape& gpu) { return measureFma<double>(gpu, "fp64", 2, "DFMA"); }
Peak measureFp32(const GpuShape& gpu) { return measureFma<float>(gpu, "fp32", 2, "FFMA"); }
Peak measureFp16(const GpuShape& gpu) { return measureFma<__half2>(gpu, "fp16", 4, "HFMA2 (half2)"); }

}  // namespace gpuscope::peaks
