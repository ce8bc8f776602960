#pragma once
// The counters `gpuscope record --metrics roofline` asks CUPTI's range profiler for: the ones Nsight
// Compute's roofline sections read (names from core/roofline/roofline_counters.h, so a recording and an imported
// ncu report are computed alike). No CUPTI here, so it is tested without a GPU.
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::cuda {

// A base metric of the tensor-core path ("sm__ops_path_tensor_src_fp16_dst_fp32"), counted once: the
// _sparsity_on/_off splits of the same operations are left out.
bool isTensorOpsMetric(std::string_view baseMetric);

// Duration, DRAM/L2/L1 bytes, FP64/FP32/FP16 add, mul and fma thread instructions, and the ".sum" of every
// tensor-path metric among BASEMETRICS (the chip's base counter metrics; which exist differs by chip).
std::vector<std::string> rooflineMetricNames(const std::vector<std::string>& baseMetrics);

}  // namespace gpuscope::cuda
