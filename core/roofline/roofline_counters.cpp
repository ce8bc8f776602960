#include "core/roofline/roofline_counters.h"

#include <optional>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

std::optional<double> firstValue(const CounterValues& counters, std::string_view name) {
  for (const auto& [counter, value] : counters)
    if (counter == name) return value;
  return std::nullopt;
}

std::optional<double> flopsOf(const CounterValues& counters, const roofline_counter::FlopCounters& names) {
  auto add = firstValue(counters, names.add);
  auto mul = firstValue(counters, names.mul);
  auto fma = firstValue(counters, names.fma);
  if (!add && !mul && !fma) return std::nullopt;
  return add.value_or(0) + mul.value_or(0) + 2 * fma.value_or(0);
}

std::optional<double> tensorOps(const CounterValues& counters) {
  std::optional<double> total;
  for (const auto& [counter, value] : counters) {
    std::string_view name = counter;
    if (!name.starts_with(roofline_counter::kTensorOpsPrefix) || !name.ends_with(".sum")) continue;
    if (name.find("_sparsity_") != std::string_view::npos) continue;
    total = total.value_or(0) + value;
  }
  return total;
}

}  // namespace

KernelMetrics kernelMetricsFromCounters(const CounterValues& counters) {
  KernelMetrics metrics;
  if (auto duration = firstValue(counters, roofline_counter::kDuration)) metrics.durationNs = roundedToInt64(*duration);
  metrics.flopsOf(Precision::Fp64) = flopsOf(counters, roofline_counter::kFp64);
  metrics.flopsOf(Precision::Fp32) = flopsOf(counters, roofline_counter::kFp32);
  metrics.flopsOf(Precision::Fp16) = flopsOf(counters, roofline_counter::kFp16);
  metrics.flopsOf(Precision::Tensor) = tensorOps(counters);
  metrics.bytesOf(MemoryLevel::Dram) = firstValue(counters, roofline_counter::kDramBytes);
  metrics.bytesOf(MemoryLevel::L2) = firstValue(counters, roofline_counter::kL2Bytes);
  metrics.bytesOf(MemoryLevel::L1) = firstValue(counters, roofline_counter::kL1Bytes);
  return metrics;
}

}  // namespace gpuscope
