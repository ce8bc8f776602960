// gpuscope's own tables, beside the nsys schema (the GPUSCOPE_ prefix).
#include "core/schema/table_names.h"
#include "core/schema/table_spec.h"

namespace gpuscope {
namespace {
using namespace schema_decl;

// Roofs measured on the GPU itself by `gpuscope peaks --store`: one row per (device, kind, measurement);
// kind is fp64/fp32/fp16/tensor (value in FLOP/s) or dram/l2/l1 (bytes/s); measuredAt in ns since the UTC
// epoch. deviceId is the TARGET_INFO_GPU id; name and uuid are those of the GPU measured.
TableSpec devicePeaksTable() {
  TableSpec spec{table::kDevicePeaks,
                 TableGroup::Metadata,
                 {need("deviceId", I), opt("name", T), opt("uuid", T), need("kind", T), need("value", R),
                  opt("method", T), opt("measuredAt", I)}};
  spec.sameRowKey = {"deviceId", "uuid", "kind", "method", "measuredAt"};
  return spec;
}

// Per kernel launch, the counters the roofline needs (from `import ncu` or `record --metrics roofline`);
// one row per launch, unique on (globalPid, correlationId). Created when a file gets its first metrics.
TableSpec kernelMetricsTable() {
  return {table::kKernelMetrics,
          TableGroup::Metadata,
          {need("globalPid", I, false).as(kGlobalId), need("correlationId", I).as(kCorrelation), opt("kernelName", T),
           opt("sourceId", I, false), need("durationNs", I, false), need("flopsFp64", R, false),
           need("flopsFp32", R, false), need("flopsFp16", R, false), need("flopsTensor", R, false),
           need("dramBytes", R, false), need("l2Bytes", R, false), need("l1Bytes", R, false), opt("source", T)},
          {},
          false,
          {{{"globalPid", "correlationId"}, true}}};
}

// One row per rank a file holds (`gpuscope merge` writes one per input), or per process of a recording whose
// environment named its rank: its rank, local rank, world size, host, absolute session start, and how its rows
// were told apart and moved in the file (the hw field of its global ids, hwFirst..hwLast, the offset added to
// its correlation ids, the shift added to its times). No key: a recording has a row per process, and a rank's
// workers share its rank. Only files that hold ranks have it.
TableSpec ranksTable() {
  return {table::kRanks,
          TableGroup::Rebuilt,
          {need("rank", I), opt("localRank", I), opt("worldSize", I), opt("hostName", T), opt("sessionStartUtcNs", I),
           need("hwFirst", I), need("hwLast", I), need("correlationIdOffset", I), need("timeShiftNs", I),
           opt("rankSource", T), opt("sourcePath", T), opt("pid", I)},
          {},
          false};
}

}  // namespace

std::vector<TableSpec> gpuscopeTables() {
  return {{table::kGpuscopeMeta, TableGroup::Rebuilt, {need("name", T), need("value", T, false)}},
          devicePeaksTable(),
          kernelMetricsTable(),
          ranksTable()};
}

}  // namespace gpuscope
