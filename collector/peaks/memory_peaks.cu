// Bandwidth roofs: DRAM (streaming through buffers far larger than L2), L2 (a working set that fits in it,
// read again and again past L1) and L1/shared memory (conflict-free 16-byte reads of a tile).
#include <algorithm>
#include <cstdio>

#include "collector/peaks/peak_kernels.cuh"
#include "collector/peaks/peak_timing.cuh"

namespace gpuscope::peaks {
namespace {

constexpr int kBlock = 256;

__device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

// Writes ACC only when the caller's impossible value comes up, so the compiler must keep every load.
__device__ void keep(float4 acc, float never, float* sink) {
  float sum = acc.x + acc.y + acc.z + acc.w;
  if (sum == never) *sink = sum;
}

// Grid-stride copy, four independent 16-byte loads in flight per thread.
__global__ void copyKernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  size_t stride = size_t{gridDim.x} * blockDim.x;
  size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    float4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
    out[i] = a;
    out[i + stride] = b;
    out[i + 2 * stride] = c;
    out[i + 3 * stride] = d;
  }
  for (; i < n; i += stride) out[i] = in[i];
}

// Grid-stride reads of N float4s, PASSES times over; ld.global.cg keeps them out of L1, so a working set
// that fits in L2 is served by L2 and a larger one by DRAM.
__global__ void readKernel(const float4* __restrict__ in, size_t n, int passes, float never, float* sink) {
  size_t stride = size_t{gridDim.x} * blockDim.x;
  float4 acc = make_float4(0, 0, 0, 0);
  for (int pass = 0; pass < passes; ++pass) {
    size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride)
      acc = acc + __ldcg(in + i) + __ldcg(in + i + stride) + __ldcg(in + i + 2 * stride) + __ldcg(in + i + 3 * stride);
    for (; i < n; i += stride) acc = acc + __ldcg(in + i);
  }
  keep(acc, never, sink);
}

constexpr int kTile = 1024;  // float4s of shared memory per block (16 KiB): 8 blocks of 256 threads fit an SM

// ITERATIONS rounds of 8 reads of the tile per thread. Each warp reads 32 consecutive float4s (4 wavefronts,
// no bank conflict); the offset moves every round so no read can be hoisted out of the loop.
__global__ void sharedKernel(int iterations, float never, float* sink) {
  __shared__ float4 tile[kTile];
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  float4 acc = make_float4(0, 0, 0, 0);
  for (int r = 0; r < iterations; ++r) {
    int base = threadIdx.x + r * 32;
#pragma unroll
    for (int k = 0; k < 8; ++k) acc = acc + tile[(base + k * 128) & (kTile - 1)];
  }
  keep(acc, never, sink);
}

// Device memory freed on scope exit.
template <typename T>
struct DeviceBuffer {
  T* data = nullptr;
  explicit DeviceBuffer(size_t count) {
    check(cudaMalloc(&data, count * sizeof(T)), "cudaMalloc");
    check(cudaMemset(data, 0, count * sizeof(T)), "cudaMemset");
  }
  ~DeviceBuffer() { cudaFree(data); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

int residentBlocks(const GpuShape& gpu) { return gpu.smCount * std::max(1, gpu.maxThreadsPerSm / kBlock); }

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string best() { return ", best of " + std::to_string(kRepeats) + " (CUDA events)"; }

}  // namespace

Peak measureDram(const GpuShape& gpu) {
  // Two buffers of a quarter of free memory each, at most 1 GiB: over 20x any L2 of today.
  size_t bytes = std::min<size_t>(size_t{1} << 30, gpu.freeBytes / 4) & ~size_t{0xFFFF};
  size_t n = bytes / sizeof(float4);
  DeviceBuffer<float4> in(n), out(n);
  DeviceBuffer<float> sink(1);
  int blocks = residentBlocks(gpu);
  // Several launches per timing: one pass over the buffers is well under a millisecond on HBM.
  auto copies = [&](long long count) {
    for (long long i = 0; i < count; ++i) copyKernel<<<blocks, kBlock>>>(in.data, out.data, n);
  };
  auto reads = [&](long long passes) {
    readKernel<<<blocks, kBlock>>>(in.data, n, static_cast<int>(passes), -1.0f, sink.data);
  };
  long long copyCount = calibratedCount(copies, 1, 1000), readPasses = calibratedCount(reads, 1, 1000);
  double copy = bestSeconds([&] { copies(copyCount); }) / static_cast<double>(copyCount);
  double read = bestSeconds([&] { reads(readPasses); }) / static_cast<double>(readPasses);
  double copyRate = 2.0 * static_cast<double>(bytes) / copy, readRate = static_cast<double>(bytes) / read;
  std::string sizes = mib(bytes) + " buffers, float4 grid-stride, " + std::to_string(blocks) + "x" +
                      std::to_string(kBlock) + " threads" + best();
  if (copyRate >= readRate) return {"dram", copyRate, "copy kernel (bytes read + written), " + sizes};
  return {"dram", readRate, "read kernel (ld.global.cg, bytes read), " + sizes};
}

Peak measureL2(const GpuShape& gpu) {
  // The best of a few working sets below the L2 size: a larger one spills, and on chips with a partitioned
  // L2 (Ampere, Hopper) a smaller one is served more from the near partition.
  Peak result{"l2", 0, ""};
  int blocks = residentBlocks(gpu);
  for (size_t divisor : {8, 4, 2}) {
    size_t bytes = (gpu.l2Bytes / divisor) & ~size_t{0xFFFF};
    if (bytes == 0) continue;
    size_t n = bytes / sizeof(float4);
    DeviceBuffer<float4> in(n);
    DeviceBuffer<float> sink(1);
    auto run = [&](long long passes) {
      readKernel<<<blocks, kBlock>>>(in.data, n, static_cast<int>(passes), -1.0f, sink.data);
    };
    long long passes = calibratedCount(run, 4, 1 << 20);
    double seconds = bestSeconds([&] { run(passes); });
    double rate = static_cast<double>(bytes) * static_cast<double>(passes) / seconds;
    if (rate > result.value)
      result = {"l2", rate,
                "reads (ld.global.cg, past L1) of a " + mib(bytes) + " working set, " + std::to_string(passes) +
                    " passes" + best()};
  }
  return result;
}

Peak measureShared(const GpuShape& gpu) {
  int blocks = residentBlocks(gpu);
  DeviceBuffer<float> sink(1);
  auto run = [&](long long iterations) {
    sharedKernel<<<blocks, kBlock>>>(static_cast<int>(iterations), -1.0f, sink.data);
  };
  long long iterations = calibratedCount(run, 64, 1 << 28);
  double seconds = bestSeconds([&] { run(iterations); });
  double bytes = static_cast<double>(blocks) * kBlock * static_cast<double>(iterations) * 8 * sizeof(float4);
  return {"l1", bytes / seconds,
          "shared-memory reads (16 B a thread, conflict-free) of a 16 KiB tile per block, " + std::to_string(blocks) +
              "x" + std::to_string(kBlock) + " threads" + best()};
}

}  // namespace gpuscope::peaks
