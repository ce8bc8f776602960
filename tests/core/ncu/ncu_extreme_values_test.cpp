// ncu values beyond int64 (an ID of 1e30, a duration of 1e300 ns): casting them was undefined behaviour
// (UBSan's float-cast-overflow); they now fall back as absent values do.
#include <gtest/gtest.h>

#include <string>

#include "core/ncu/ncu_kernel_metrics.h"
#include "core/ncu/ncu_report.h"

namespace gpuscope {
namespace {

std::string rawReport(const std::string& id, const std::string& duration) {
  return "\"ID\",\"Process ID\",\"Kernel Name\",\"Stream\",\"Device\",\"gpu__time_duration.sum\"\n"
         "\"\",\"\",\"\",\"\",\"\",\"nsecond\"\n\"" +
         id + "\",\"12\",\"k\",\"7\",\"0\",\"" + duration + "\"\n";
}

TEST(NcuExtremeValues, IdBeyondInt64FallsBack) {
  auto report = parseNcuCsv(rawReport("1e30", "5"));
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].id, -1);
}

TEST(NcuExtremeValues, DurationBeyondInt64IsAbsent) {
  auto report = parseNcuCsv(rawReport("0", "1e300"));
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_FALSE(kernelMetricsFromNcu(report.kernels[0]).durationNs.has_value());
  auto nan = parseNcuCsv(rawReport("0", "nan"));
  EXPECT_FALSE(kernelMetricsFromNcu(nan.kernels[0]).durationNs.has_value());
}

TEST(NcuExtremeValues, OrdinaryDurationRounds) {
  auto report = parseNcuCsv(rawReport("0", "2.5"));
  EXPECT_EQ(kernelMetricsFromNcu(report.kernels[0]).durationNs, 3);
}

}  // namespace
}  // namespace gpuscope
