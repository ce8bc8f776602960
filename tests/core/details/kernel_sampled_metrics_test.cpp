// A kernel's details with GPU metrics: the sampled means over the kernel, or "too short" below three samples.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/details/event_details.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/model/trace_loader.h"
#include "tests/core/testing/metric_trace.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

constexpr TimeNs kSampleMs = 1'000'000;

std::optional<EventRef> kernelNamed(const Trace& trace, std::string_view name) {
  for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
    if (trace.tracks()[t].kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < trace.tracks()[t].lanes.size(); ++l)
      for (uint32_t i = 0; i < trace.tracks()[t].lanes[l].size(); ++i)
        if (trace.name({t, l, i}) == name) return EventRef{t, l, i};
  }
  return std::nullopt;
}

TEST(KernelSampledMetrics, ALongKernelShowsTheMeansOfTheSamplesInsideIt) {
  std::string path = testing::processTempPath("kernel_sampled", "long.sqlite");
  // SMs Active is 80 inside [10 ms, 20 ms] and 0 outside; Tensor Active counts up with time.
  auto inside = [](TimeNs t) { return t >= 10 * kSampleMs && t < 20 * kSampleMs; };
  testing::writeMetricTrace(path, {{10 * kSampleMs, 20 * kSampleMs, "long"}, {30 * kSampleMs, 31 * kSampleMs, "short"}},
                            {{gpu_metric::kSmsActive, [&](TimeNs t) { return inside(t) ? 80 : 0; }},
                             {gpu_metric::kTensorActive, [](TimeNs t) { return t / kSampleMs; }}},
                            40 * kSampleMs, kSampleMs);
  auto trace = loadTrace(path);
  std::filesystem::remove(path);
  auto kernel = kernelNamed(*trace, "long");
  ASSERT_TRUE(kernel);
  EventDetails details = describeEvent(*trace, *kernel);
  const std::string section = "GPU metrics (sampled, whole GPU)";
  // Samples at 10..19 ms cover [10, 20) ms: ten of them; Tensor Active averages 10..19 = 14.5.
  ASSERT_NE(details.field("Samples", section), nullptr);
  EXPECT_EQ(details.field("Samples", section)->value, "10 inside the kernel at 1 kHz");
  ASSERT_NE(details.field("SMs Active", section), nullptr);
  EXPECT_EQ(details.field("SMs Active", section)->value, "80.0 %");
  EXPECT_EQ(details.field("Tensor Active", section)->value, "14.5 %");
  EXPECT_EQ(details.field("DRAM Read Bandwidth", section), nullptr) << "the file has no such metric";

  auto shortKernel = kernelNamed(*trace, "short");
  ASSERT_TRUE(shortKernel);
  EventDetails shortDetails = describeEvent(*trace, *shortKernel);
  ASSERT_NE(shortDetails.field("Samples", section), nullptr);
  EXPECT_EQ(shortDetails.field("Samples", section)->value,
            "1 inside the kernel at 1 kHz: too short for the sampling rate (the means need 3)");
  EXPECT_EQ(shortDetails.field("SMs Active", section), nullptr);
}

TEST(KernelSampledMetrics, AFileWithoutMetricsHasNoSection) {
  auto trace = loadTrace(testing::fixturePath("nsys/transpose.sqlite"));
  auto kernel = kernelNamed(*trace, "transposeNaive");
  ASSERT_TRUE(kernel);
  EventDetails details = describeEvent(*trace, *kernel);
  EXPECT_EQ(details.field("Samples", "GPU metrics (sampled, whole GPU)"), nullptr);
}

TEST(KernelSampledMetrics, NsysTransposeKernelsAreTooShortForOneKilohertz) {
  auto trace = loadTrace(testing::gpuMetricsFixture("gm_transpose"));
  auto kernel = kernelNamed(*trace, "transposeNaive");
  ASSERT_TRUE(kernel);
  EventDetails details = describeEvent(*trace, *kernel);
  const DetailField* samples = details.field("Samples", "GPU metrics (sampled, whole GPU)");
  ASSERT_NE(samples, nullptr);
  EXPECT_NE(samples->value.find("too short for the sampling rate"), std::string::npos) << samples->value;
  EXPECT_NE(samples->value.find("1 kHz"), std::string::npos) << samples->value;
}

}  // namespace
}  // namespace gpuscope
