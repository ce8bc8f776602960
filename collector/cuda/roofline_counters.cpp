#include "collector/cuda/roofline_counters.h"

#include <algorithm>

#include "core/roofline/roofline_counters.h"

namespace gpuscope::cuda {

bool isTensorOpsMetric(std::string_view baseMetric) {
  return baseMetric.starts_with(roofline_counter::kTensorOpsPrefix) &&
         baseMetric.find("_sparsity_") == std::string_view::npos;
}

std::vector<std::string> rooflineMetricNames(const std::vector<std::string>& baseMetrics) {
  std::vector<std::string> names;
  for (std::string_view name : {roofline_counter::kDuration, roofline_counter::kDramBytes, roofline_counter::kL2Bytes,
                                roofline_counter::kL1Bytes})
    names.emplace_back(name);
  for (const auto& counters : {roofline_counter::kFp64, roofline_counter::kFp32, roofline_counter::kFp16}) {
    for (std::string_view name : {counters.add, counters.mul, counters.fma}) names.emplace_back(name);
  }
  std::vector<std::string> tensor;
  for (const std::string& base : baseMetrics) {
    if (!isTensorOpsMetric(base)) continue;
    // Base metrics come without a roll-up; ncu's tensor roofline adds up the .sum of each.
    tensor.push_back(base.ends_with(".sum") ? base : base + ".sum");
  }
  std::sort(tensor.begin(), tensor.end());
  tensor.erase(std::unique(tensor.begin(), tensor.end()), tensor.end());
  names.insert(names.end(), tensor.begin(), tensor.end());
  return names;
}

}  // namespace gpuscope::cuda
