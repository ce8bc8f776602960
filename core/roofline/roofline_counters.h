#pragma once
// The hardware counters a roofline is computed from, and the one arithmetic that turns them into a
// KernelMetrics row. Both producers feed it: `gpuscope import-ncu` (an ncu report's metrics) and
// `gpuscope record --metrics roofline` (CUPTI's range profiler), so their rows are computed alike.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/roofline/kernel_metrics.h"

namespace gpuscope {

// The counters Nsight Compute's roofline uses (metric ids as `ncu --metrics` and CUPTI's profiler name them).
namespace roofline_counter {
inline constexpr std::string_view kDuration = "gpu__time_duration.sum";
inline constexpr std::string_view kDramBytes = "dram__bytes.sum";
inline constexpr std::string_view kL2Bytes = "lts__t_bytes.sum";
inline constexpr std::string_view kL1Bytes = "l1tex__t_bytes.sum";
// FLOPs of a precision = add + mul + 2 x fma thread instructions executed with the predicate on.
struct FlopCounters {
  std::string_view add, mul, fma;
};
inline constexpr FlopCounters kFp64 = {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
                                       "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
                                       "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"};
inline constexpr FlopCounters kFp32 = {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                                       "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                                       "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
inline constexpr FlopCounters kFp16 = {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
                                       "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
                                       "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"};
// Tensor-core math: the sum of sm__ops_path_tensor_src_<type>[_dst_<type>].sum (ops executed in the tensor
// path; the _sparsity_on/_off splits of the same counters are not added again).
inline constexpr std::string_view kTensorOpsPrefix = "sm__ops_path_tensor_src_";
}  // namespace roofline_counter

// Counter values by name, in the order the producer has them; a name may repeat (ncu prints some metrics in
// several sections), and then its first value counts.
using CounterValues = std::vector<std::pair<std::string, double>>;

// The row for one launch's COUNTERS (identity fields and source left for the producer to fill). Nothing is
// invented: a precision's FLOPs are present only when at least one of its counters is, and so on.
KernelMetrics kernelMetricsFromCounters(const CounterValues& counters);

}  // namespace gpuscope
