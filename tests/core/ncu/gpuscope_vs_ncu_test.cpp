// gpuscope's own `record --metrics roofline` counters against Nsight Compute's for the same program, from a
// real pair of runs on an H100 (tests/fixtures/README.md): the ncu report attaches to gpuscope's trace
// across the two demanglers' spellings, and the counters agree launch by launch.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/model/trace_file.h"
#include "core/ncu/ncu_import.h"
#include "core/ncu/ncu_report.h"
#include "core/roofline/kernel_metrics_table.h"

namespace gpuscope {
namespace {

const std::string kDir = std::string(GPUSCOPE_FIXTURES) + "/gpuscope/";
const std::string kRooflineTrace = kDir + "transpose_roofline.sqlite";
const std::string kRawNcuReport = kDir + "transpose_ncu_raw_clock_none_cache_none.csv";

double total(const std::array<std::optional<double>, 4>& flops) {
  double sum = 0;
  for (const auto& value : flops) sum += value.value_or(0.0);
  return sum;
}

double percentApart(double a, double b) {
  return a == b ? 0.0 : std::abs(a - b) / std::max(std::abs(a), std::abs(b)) * 100;
}

class GpuscopeVsNcu : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = openTraceFile(kRooflineTrace);
    for (auto& row : readKernelMetrics(db)) ours_.emplace(row.correlationId, std::move(row));
    match_ = matchNcuKernels(readNcuCsvFile(kRawNcuReport), readTraceKernelLaunches(db), "test");
  }
  std::map<uint32_t, KernelMetrics> ours_;
  NcuMatch match_;
};

TEST_F(GpuscopeVsNcu, EveryNcuLaunchFindsGpuscopesLaunch) {
  ASSERT_EQ(ours_.size(), 30u);
  EXPECT_EQ(match_.ncuKernels, 30u);
  EXPECT_TRUE(match_.unknownNames.empty()) << match_.unknownNames.front();
  ASSERT_EQ(match_.rows.size(), 30u);
  for (const auto& theirs : match_.rows) EXPECT_EQ(ours_.count(theirs.correlationId), 1u) << theirs.correlationId;
}

TEST_F(GpuscopeVsNcu, FlopsAndL1BytesAgreeExactly) {
  for (const auto& theirs : match_.rows) {
    const KernelMetrics& mine = ours_.at(theirs.correlationId);
    EXPECT_EQ(total(mine.flops), total(theirs.flops)) << theirs.kernelName;
    EXPECT_EQ(mine.bytesOf(MemoryLevel::L1), theirs.bytesOf(MemoryLevel::L1)) << theirs.kernelName;
  }
}

TEST_F(GpuscopeVsNcu, DramBytesAgreeWhereTheKernelLeavesNoDirtyL2Behind) {
  // The shared-memory transpose writes its 128 MiB result last; ncu's measurement ends with part of it still
  // in the 50 MB L2 and counts fewer DRAM bytes than the kernel must move (2 x 128 MiB), while gpuscope's
  // range counts them. The other two kernels agree with ncu within 1% (saxpy) and 1.5% (naive transpose).
  constexpr double kMustMove = 2.0 * 8192 * 4096 * 4;
  for (const auto& theirs : match_.rows) {
    const KernelMetrics& mine = ours_.at(theirs.correlationId);
    double a = mine.bytesOf(MemoryLevel::Dram).value_or(0), b = theirs.bytesOf(MemoryLevel::Dram).value_or(0);
    if (theirs.kernelName.starts_with("saxpy")) {
      EXPECT_LE(percentApart(a, b), 1.0) << theirs.correlationId;
    } else if (theirs.kernelName.starts_with("transposeNaive")) {
      EXPECT_LE(percentApart(a, b), 1.5) << theirs.correlationId;
    } else {
      EXPECT_GE(a, kMustMove) << theirs.correlationId;
      EXPECT_LT(b, kMustMove) << theirs.correlationId;
    }
  }
}

}  // namespace
}  // namespace gpuscope
