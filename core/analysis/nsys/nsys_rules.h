#pragma once
// Nsight Systems' expert-system rules (`nsys analyze`), with nsys's names, options, columns, row
// order and defaults, so that `gpuscope analyze --format csv` prints what nsys prints.
#include <memory>
#include <vector>

#include "core/analysis/analysis_rule.h"

namespace gpuscope {

// cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync, cuda_api_sync, gpu_gaps, gpu_time_util,
// dx12_mem_ops, in nsys's order.
std::vector<std::unique_ptr<AnalysisRule>> makeNsysRules();

}  // namespace gpuscope
