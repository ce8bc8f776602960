#include "core/ncu/kernel_metrics.h"

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/time_math.h"
#include "core/ncu/ncu_report.h"

namespace gpuscope {
namespace {

std::optional<double> flopsOf(const NcuKernel& kernel, const ncu_metric::FlopCounters& counters) {
  auto add = kernel.value(counters.add);
  auto mul = kernel.value(counters.mul);
  auto fma = kernel.value(counters.fma);
  if (!add && !mul && !fma) return std::nullopt;
  return add.value_or(0) + mul.value_or(0) + 2 * fma.value_or(0);
}

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::optional<double> tensorOps(const NcuKernel& kernel) {
  std::optional<double> total;
  for (const auto& metric : kernel.metrics) {
    std::string_view name = metric.name;
    if (name.rfind(ncu_metric::kTensorOpsPrefix, 0) != 0 || !endsWith(name, ".sum") || !metric.value) continue;
    if (name.find("_sparsity_") != std::string_view::npos) continue;
    total = total.value_or(0) + *metric.value;
  }
  return total;
}

}  // namespace

std::string_view precisionName(Precision precision) {
  switch (precision) {
    case Precision::Fp64:
      return "FP64";
    case Precision::Fp32:
      return "FP32";
    case Precision::Fp16:
      return "FP16";
    case Precision::Tensor:
      return "Tensor";
  }
  return "?";
}

std::string_view memoryLevelName(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::Dram:
      return "DRAM";
    case MemoryLevel::L2:
      return "L2";
    case MemoryLevel::L1:
      return "L1";
  }
  return "?";
}

KernelMetrics kernelMetricsFromNcu(const NcuKernel& kernel) {
  KernelMetrics metrics;
  metrics.kernelName = kernel.name;
  metrics.sourceId = kernel.id;
  if (auto duration = kernel.value(ncu_metric::kDuration)) metrics.durationNs = roundedToInt64(*duration);
  metrics.flopsOf(Precision::Fp64) = flopsOf(kernel, ncu_metric::kFp64);
  metrics.flopsOf(Precision::Fp32) = flopsOf(kernel, ncu_metric::kFp32);
  metrics.flopsOf(Precision::Fp16) = flopsOf(kernel, ncu_metric::kFp16);
  metrics.flopsOf(Precision::Tensor) = tensorOps(kernel);
  metrics.bytesOf(MemoryLevel::Dram) = kernel.value(ncu_metric::kDramBytes);
  metrics.bytesOf(MemoryLevel::L2) = kernel.value(ncu_metric::kL2Bytes);
  metrics.bytesOf(MemoryLevel::L1) = kernel.value(ncu_metric::kL1Bytes);
  return metrics;
}

std::vector<KernelMetrics> readKernelMetrics(const Database& db) {
  std::vector<KernelMetrics> rows;
  if (!db.hasTable(kKernelMetricsTable)) return rows;
  const TableSpec& spec = kernelMetricsTableSpec();
  auto missing = missingNeededColumns(db, spec);
  if (!missing.empty())
    throw TraceError("The file's " + std::string(kKernelMetricsTable) + " table has no " + missing.front() +
                     " column: it was written by another version; import the ncu report again.");
  std::string columns;
  for (const auto& column : spec.columns) {
    if (!columns.empty()) columns += ", ";
    // Optional columns may be absent in files of other versions.
    columns += column.neededToRead || hasColumn(db, spec.name, column.name) ? std::string(column.name) : "NULL";
  }
  auto stmt = db.prepare("SELECT " + columns + " FROM " + std::string(kKernelMetricsTable));
  auto optionalReal = [&stmt](int column) {
    return stmt.isNull(column) ? std::optional<double>() : std::optional<double>(stmt.real(column));
  };
  while (stmt.step()) {
    KernelMetrics row;
    row.globalPid = stmt.isNull(0) ? 0 : stmt.int64(0);
    row.correlationId = static_cast<uint32_t>(stmt.int64(1));
    row.kernelName = std::string(stmt.text(2));
    row.sourceId = stmt.isNull(3) ? -1 : stmt.int64(3);
    if (!stmt.isNull(4)) row.durationNs = stmt.int64(4);
    for (size_t p = 0; p < row.flops.size(); ++p) row.flops[p] = optionalReal(5 + static_cast<int>(p));
    for (size_t l = 0; l < row.bytes.size(); ++l) row.bytes[l] = optionalReal(9 + static_cast<int>(l));
    row.source = std::string(stmt.text(12));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace gpuscope
