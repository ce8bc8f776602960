// GPU hardware metrics and device memory usage, as nsys 2025.3's exports declare them (--gpu-metrics-devices,
// --cuda-memory-usage). GPU_METRICS.typeId is laid out as a global id whose low byte is the GPU's device id
// (nsys's own scripts read it so); the merge gives it each input's hw field, as it does globalPid.
#include "core/schema/table_names.h"
#include "core/schema/table_spec.h"

namespace gpuscope {
namespace {
using namespace schema_decl;

// One row per metric per sample: value is an integer in the unit the metric's name ends with ([MHz],
// [Throughput %], [Avg]...).
TableSpec gpuMetricsTable() {
  return {table::kGpuMetrics,
          TableGroup::Counters,
          {opt("rawTimestamp", I, true), need("timestamp", I).as(kTime), need("typeId", I).as(kGlobalId),
           need("metricId", I), need("value", I)},
          {},
          false,
          {{{"typeId", "timestamp"}}}};
}

// The names of a GPU's metrics: (typeId, metricId) names one counter of one GPU.
TableSpec gpuMetricNamesTable() {
  TableSpec spec{table::kTargetGpuMetrics,
                 TableGroup::Metadata,
                 {need("typeId", I).as(kGlobalId), opt("sourceId", I, true).as(kGlobalId), opt("typeName", T, true),
                  need("metricId", I), need("metricName", T)},
                 {},
                 false};
  spec.sameRowKey = {"typeId", "metricId"};
  return spec;
}

// One row per device allocation or free; bytes is the size allocated or freed.
TableSpec memoryUsageTable() {
  return {
      table::kGpuMemoryUsage,
      TableGroup::Counters,
      {need("start", I).as(kTime), need("globalPid", I).as(kGlobalId), need("deviceId", I), opt("contextId", I, true),
       need("address", I), opt("pc", I, true), need("bytes", I), need("memKind", I).as(kEnum),
       need("memoryOperationType", I).as(kEnum), opt("name", T), opt("correlationId", I).as(kCorrelation),
       opt("streamId", I), opt("localMemoryPoolAddress", I), opt("localMemoryPoolReleaseThreshold", I),
       opt("localMemoryPoolSize", I), opt("localMemoryPoolUtilizedSize", I), opt("importedMemoryPoolAddress", I),
       opt("importedMemoryPoolProcessId", I)},
      {},
      false,
      {{{"start"}}}};
}

}  // namespace

std::vector<TableSpec> metricTables() {
  return {gpuMetricsTable(), gpuMetricNamesTable(), memoryUsageTable(),
          enumTable(table::kEnumDevMemEventOper, nsys_enum::kDevMemEventOperRows)};
}

}  // namespace gpuscope
