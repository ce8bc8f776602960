// The roofline sections of a kernel's details: engineering units, hand-made kernels on a made-up GPU, and
// the transpose fixture's saxpy with its ncu metrics on the H100 of the file.
#include "core/details/kernel_roofline.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;

// 1000 GFLOP/s FP32, 500 GFLOP/s FP64, DRAM 100 GB/s, L2 400 GB/s, L1 unknown.
DeviceRoofs testRoofs() {
  DeviceRoofs roofs;
  roofs.peakFlops = {500e9, 1000e9, 0, 0};
  roofs.bandwidth = {100e9, 400e9, 0};
  return roofs;
}

RooflineKernel kernel(std::optional<double> fp32, std::optional<double> dram, std::optional<double> l2,
                      int64_t durationNs) {
  RooflineKernel k;
  k.name = "gemm";
  k.metrics.globalPid = global_id::make(0, 0, 42, 0);
  k.metrics.correlationId = 7;
  k.metrics.flopsOf(Precision::Fp32) = fp32;
  k.metrics.bytesOf(MemoryLevel::Dram) = dram;
  k.metrics.bytesOf(MemoryLevel::L2) = l2;
  k.metrics.durationNs = durationNs;
  k.metrics.source = "ncu --csv run.csv";
  return k;
}

std::string value(const std::vector<DetailSection>& sections, std::string_view section, std::string_view label) {
  for (const auto& s : sections)
    if (s.title == section)
      for (const auto& f : s.fields)
        if (f.label == label) return f.value;
  return "<none>";
}

TEST(EngineeringText, PrefixesAndDigits) {
  EXPECT_EQ(engineeringText(466863757791.6, "FLOP/s"), "467 GFLOP/s");
  EXPECT_EQ(engineeringText(466863757791.6, "FLOP/s", 4), "466.9 GFLOP/s");
  EXPECT_EQ(engineeringText(66908.16e9, "FLOP/s", 4), "66.91 TFLOP/s");
  EXPECT_EQ(engineeringText(1e12, "FLOP/s"), "1 TFLOP/s");
  EXPECT_EQ(engineeringText(100e9, "FLOP/s"), "100 GFLOP/s");
  EXPECT_EQ(engineeringText(999.96, "FLOP/s", 4), "1 kFLOP/s");  // rounding carries into the next prefix
  EXPECT_EQ(engineeringText(0.0125, "s"), "12.5 ms");
  EXPECT_EQ(engineeringText(0, "B"), "0 B");
  EXPECT_EQ(engineeringText(-2500, "B"), "-2.5 kB");
  EXPECT_EQ(engineeringText(3352.32e9, "B/s", 4), "3.352 TB/s");
  EXPECT_EQ(intensityText(0.1733191492), "0.1733 FLOP/byte");
  EXPECT_EQ(intensityText(19.958762886), "19.96 FLOP/byte");
  EXPECT_EQ(intensityText(1000), "1000 FLOP/byte");
}

TEST(KernelRoofline, MemoryBoundKernel) {
  // 2 GFLOP over 1 GB of DRAM and 2 GB of L2 in 10 ms: 200 GFLOP/s, 2 FLOP/B at DRAM -> 200 GFLOP/s attainable.
  auto sections = kernelRooflineSections(kernel(2e9, 1e9, 2e9, 10'000'000), testRoofs());
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[0].title, "Roofline metrics");
  EXPECT_EQ(sections[1].title, "Roofline");
  EXPECT_EQ(value(sections, "Roofline metrics", "Metrics source"), "ncu --csv run.csv");
  EXPECT_EQ(value(sections, "Roofline metrics", "FP32 FLOPs"), "2000000000 (2 GFLOP)");
  EXPECT_EQ(value(sections, "Roofline metrics", "FP64 FLOPs"), "<none>");  // not counted: not invented
  EXPECT_EQ(value(sections, "Roofline metrics", "DRAM bytes"), "1000000000 B (953.67 MiB)");
  EXPECT_EQ(value(sections, "Roofline metrics", "L1 bytes"), "<none>");
  EXPECT_EQ(value(sections, "Roofline metrics", "Arithmetic intensity, DRAM"), "2 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline metrics", "Arithmetic intensity, L2"), "1 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline metrics", "Achieved"), "200 GFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Compared with"), "FP32 peak, 1 TFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Bound"), "Memory-bound (DRAM)");
  EXPECT_EQ(value(sections, "Roofline", "Limiting roof"), "DRAM bandwidth, 100 GB/s");
  EXPECT_EQ(value(sections, "Roofline", "Attainable"), "200 GFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Share of attainable"), "100.0 %");
  EXPECT_EQ(value(sections, "Roofline", "L2 roof at this intensity"), "400 GFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Ridge point, DRAM"), "10 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline", "Ridge point, L2"), "2.5 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline", "Ridge point, L1"), "<none>");  // L1 bandwidth unknown
}

TEST(KernelRoofline, ComputeBoundKernel) {
  // 1 TFLOP over 1 GB in 4 s: intensity 1000, right of the ridge; 250 GFLOP/s of 1 TFLOP/s.
  auto sections = kernelRooflineSections(kernel(1e12, 1e9, std::nullopt, 4'000'000'000), testRoofs());
  EXPECT_EQ(value(sections, "Roofline", "Bound"), "Compute-bound (FP32 peak)");
  EXPECT_EQ(value(sections, "Roofline", "Limiting roof"), "FP32 peak, 1 TFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Attainable"), "1 TFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Share of attainable"), "25.0 %");
  EXPECT_EQ(value(sections, "Roofline metrics", "Arithmetic intensity, L2"), "<none>");
}

TEST(KernelRoofline, SaysWhereTheRoofCameFrom) {
  auto roofs = testRoofs();
  roofs.bandwidthSource[static_cast<size_t>(MemoryLevel::Dram)] = RoofSource::Measured;
  roofs.peakSource[static_cast<size_t>(Precision::Fp32)] = RoofSource::Theoretical;
  auto memory = kernelRooflineSections(kernel(2e9, 1e9, 2e9, 10'000'000), roofs);
  EXPECT_EQ(value(memory, "Roofline", "Limiting roof"), "DRAM bandwidth, 100 GB/s (measured)");
  EXPECT_EQ(value(memory, "Roofline", "Compared with"), "FP32 peak, 1 TFLOP/s (theoretical)");
  auto compute = kernelRooflineSections(kernel(1e12, 1e9, std::nullopt, 4'000'000'000), roofs);
  EXPECT_EQ(value(compute, "Roofline", "Limiting roof"), "FP32 peak, 1 TFLOP/s (theoretical)");
}

TEST(KernelRoofline, NoFlopsOrNoRoofs) {
  auto copy = kernelRooflineSections(kernel(std::nullopt, 1e9, 1e9, 1000), testRoofs());
  EXPECT_EQ(value(copy, "Roofline metrics", "FLOPs"), "not counted");
  EXPECT_EQ(value(copy, "Roofline", "Bound"), "not on the roofline: no FLOPs were counted");
  EXPECT_EQ(value(copy, "Roofline", "Attainable"), "<none>");
  auto unknownGpu = kernelRooflineSections(kernel(2e9, 1e9, 2e9, 10'000'000), DeviceRoofs{});
  EXPECT_EQ(value(unknownGpu, "Roofline", "Bound"), "unknown: no roof of this GPU is known");
  EXPECT_EQ(value(unknownGpu, "Roofline", "Compared with"), "FP32 (its peak on this GPU is not known)");
  EXPECT_EQ(value(unknownGpu, "Roofline metrics", "Achieved"), "200 GFLOP/s");
  // ncu gave no duration: the trace's is used, and said so.
  auto k = kernel(2e9, 1e9, 2e9, 0);
  k.metrics.durationNs.reset();
  k.start = 100;
  k.end = 10'000'100;
  EXPECT_EQ(value(kernelRooflineSections(k, testRoofs()), "Roofline metrics", "Duration"),
            "10.000 ms (from the trace)");
}

TEST(KernelRoofline, FindsTheKernelByProcessAndCorrelation) {
  std::vector<RooflineKernel> kernels = {kernel(1, 1, 1, 1), kernel(2, 2, 2, 2)};
  kernels[1].metrics.correlationId = 9;
  EXPECT_EQ(findRooflineKernel(kernels, (42LL << 24) | 5, 9), &kernels[1]);  // a thread of process 42
  EXPECT_EQ(findRooflineKernel(kernels, 42LL << 24, 7), &kernels[0]);
  EXPECT_EQ(findRooflineKernel(kernels, 43LL << 24, 7), nullptr);
  EXPECT_EQ(findRooflineKernel(kernels, 42LL << 24, 8), nullptr);
}

TEST(KernelRoofline, TransposeSaxpyOnH100) {
  auto path =
      (std::filesystem::temp_directory_path() / ("gpuscope_kernel_roofline_" + std::to_string(::getpid()) + ".sqlite"))
          .string();
  importNcuMetrics({kFixtures + "/nsys/transpose.sqlite", kFixtures + "/nsys/transpose_ncu_metrics.csv", path, false});
  auto trace = loadTrace(path);
  std::filesystem::remove(path);
  auto kernels = loadRooflineKernels(trace->database());
  const RooflineKernel* saxpy = nullptr;
  for (const auto& k : kernels)
    if (!saxpy && k.name.starts_with("saxpy")) saxpy = &k;
  ASSERT_NE(saxpy, nullptr);
  ASSERT_NE(trace->device(saxpy->deviceId), nullptr);
  auto sections = kernelRooflineSections(*saxpy, deviceRoofs(*trace->device(saxpy->deviceId)));
  // The first saxpy launch is ncu's ID 5: 33,554,432 FFMA (2 FLOPs each) in 142,688 ns over 387,371,776 DRAM
  // bytes; H100 DRAM 3,352.32 GB/s.
  EXPECT_EQ(value(sections, "Roofline metrics", "FP32 FLOPs"), "67108864 (67.1 MFLOP)");
  EXPECT_EQ(value(sections, "Roofline metrics", "Duration"), "142.688 us (measured by the metrics source)");
  EXPECT_EQ(value(sections, "Roofline metrics", "Arithmetic intensity, DRAM"), "0.1732 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline metrics", "Arithmetic intensity, L2"), "0.1104 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline metrics", "Arithmetic intensity, L1"), "0.1667 FLOP/byte");
  EXPECT_EQ(value(sections, "Roofline metrics", "Achieved"), "470.3 GFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Bound"), "Memory-bound (DRAM)");
  EXPECT_EQ(value(sections, "Roofline", "Limiting roof"), "DRAM bandwidth, 3.352 TB/s (theoretical)");
  EXPECT_EQ(value(sections, "Roofline", "Attainable"), "580.8 GFLOP/s");
  EXPECT_EQ(value(sections, "Roofline", "Share of attainable"), "81.0 %");
  EXPECT_EQ(value(sections, "Roofline", "Compared with"), "FP32 peak, 66.91 TFLOP/s (theoretical)");
  EXPECT_EQ(value(sections, "Roofline", "Ridge point, DRAM"), "19.96 FLOP/byte");
}

}  // namespace
}  // namespace gpuscope
