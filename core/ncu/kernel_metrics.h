#pragma once
// KernelMetrics: the per-kernel counters the roofline needs, as GPUSCOPE_KERNEL_METRICS stores them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/schema/trace_schema.h"

namespace gpuscope {

class Database;
struct NcuKernel;

// The table these rows live in; its columns are declared in core/schema (kernelMetricsTableSpec).
inline constexpr std::string_view kKernelMetricsTable = table::kKernelMetrics;

// Floating-point precisions with their own compute roof.
enum class Precision : uint8_t { Fp64, Fp32, Fp16, Tensor };
inline constexpr std::array<Precision, 4> kPrecisions = {Precision::Fp64, Precision::Fp32, Precision::Fp16,
                                                         Precision::Tensor};
std::string_view precisionName(Precision precision);  // "FP64", "FP32", "FP16", "Tensor"

// Memory levels with their own bandwidth roof.
enum class MemoryLevel : uint8_t { Dram, L2, L1 };
inline constexpr std::array<MemoryLevel, 3> kMemoryLevels = {MemoryLevel::Dram, MemoryLevel::L2, MemoryLevel::L1};
std::string_view memoryLevelName(MemoryLevel level);  // "DRAM", "L2", "L1"

// One kernel launch's counters; a value is absent when its counters were not collected.
struct KernelMetrics {
  int64_t globalPid = 0;
  uint32_t correlationId = 0;
  std::string kernelName;  // as the metric source named it
  int64_t sourceId = -1;   // the launch's id in the source (ncu's "ID")
  std::optional<int64_t> durationNs;
  std::array<std::optional<double>, 4> flops;  // by Precision
  std::array<std::optional<double>, 3> bytes;  // by MemoryLevel
  std::string source;                          // where the values came from, e.g. "ncu --csv run_ncu.csv"

  std::optional<double>& flopsOf(Precision p) { return flops[static_cast<size_t>(p)]; }
  const std::optional<double>& flopsOf(Precision p) const { return flops[static_cast<size_t>(p)]; }
  std::optional<double>& bytesOf(MemoryLevel l) { return bytes[static_cast<size_t>(l)]; }
  const std::optional<double>& bytesOf(MemoryLevel l) const { return bytes[static_cast<size_t>(l)]; }
};

// The counters Nsight Compute's roofline uses (metric ids as `ncu --metrics` names them).
namespace ncu_metric {
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
}  // namespace ncu_metric

// The counters of one ncu kernel (its identity fields left for the caller to fill). Nothing is invented:
// a precision's FLOPs are present only when at least one of its counters is.
KernelMetrics kernelMetricsFromNcu(const NcuKernel& kernel);

// Every row of the file's GPUSCOPE_KERNEL_METRICS (empty when the table is absent). Throws TraceError when
// the table lacks a column the reader needs.
std::vector<KernelMetrics> readKernelMetrics(const Database& db);

}  // namespace gpuscope
