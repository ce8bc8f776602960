// The two producers of roofline rows, an ncu report and CUPTI counters, go through one arithmetic: the same
// counter values give the same row, whichever way they arrived.
#include "core/roofline/roofline_counters.h"

#include <gtest/gtest.h>

#include "core/ncu/ncu_kernel_metrics.h"
#include "core/ncu/ncu_report.h"

namespace gpuscope {
namespace {

const CounterValues kCounters = {
    {std::string(roofline_counter::kDuration), 1234.4},
    {std::string(roofline_counter::kDramBytes), 4096},
    {std::string(roofline_counter::kL1Bytes), 8192},
    {std::string(roofline_counter::kFp32.add), 10},
    {std::string(roofline_counter::kFp32.fma), 100},
    {"sm__ops_path_tensor_src_fp16_dst_fp32.sum", 1000},
    {"sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_on.sum", 999},  // a split of the same ops: not added
    {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 24},
    {std::string(roofline_counter::kDramBytes), 1},  // a repeat: the first value counts
};

TEST(RooflineCounters, OneArithmeticForEveryProducer) {
  KernelMetrics row = kernelMetricsFromCounters(kCounters);
  EXPECT_EQ(row.durationNs, 1234);
  EXPECT_EQ(row.flopsOf(Precision::Fp32), 10 + 2 * 100.0);
  EXPECT_FALSE(row.flopsOf(Precision::Fp64).has_value());
  EXPECT_EQ(row.flopsOf(Precision::Tensor), 1024.0);
  EXPECT_EQ(row.bytesOf(MemoryLevel::Dram), 4096.0);
  EXPECT_FALSE(row.bytesOf(MemoryLevel::L2).has_value());
  EXPECT_EQ(row.bytesOf(MemoryLevel::L1), 8192.0);

  // The same values as an ncu report's kernel: the same row, with ncu's name and id.
  NcuKernel kernel;
  kernel.id = 7;
  kernel.name = "saxpy";
  for (const auto& [name, value] : kCounters) kernel.metrics.push_back({"", "", name, "", value});
  kernel.metrics.push_back({"", "", std::string(roofline_counter::kL2Bytes), "", std::nullopt});  // "n/a"
  KernelMetrics fromNcu = kernelMetricsFromNcu(kernel);
  EXPECT_EQ(fromNcu.durationNs, row.durationNs);
  EXPECT_EQ(fromNcu.flops, row.flops);
  EXPECT_EQ(fromNcu.bytes, row.bytes);
  EXPECT_EQ(fromNcu.kernelName, "saxpy");
  EXPECT_EQ(fromNcu.sourceId, 7);
}

}  // namespace
}  // namespace gpuscope
